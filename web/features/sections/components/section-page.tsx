import { ArrowLeft, BarChart3, Bot, Megaphone, UserRound, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyState } from '../../../components/states';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

const SECTIONS = {
  campaigns: { title: 'Campanhas', icon: Megaphone, text: 'Aqui você vai criar, acompanhar e enviar suas campanhas.' },
  chatbot: {
    title: 'Chatbot',
    icon: Bot,
    text: 'Aqui você vai configurar respostas automáticas e a integração com IA.',
  },
  contacts: {
    title: 'Contatos',
    icon: UserRound,
    text: 'Aqui você vai cadastrar, importar e verificar seus contatos.',
  },
  groups: { title: 'Grupos', icon: UsersRound, text: 'Aqui você vai organizar seus grupos e exportar membros.' },
  reports: { title: 'Relatórios', icon: BarChart3, text: 'Aqui você vai acompanhar entregas, respostas e desempenho.' },
} as const;

export type Section = keyof typeof SECTIONS;

/**
 * Placeholder for the sections a later issue builds; the page title comes from the shell's header.
 */
export default function SectionPage({ section }: { section: Section }) {
  const { title, icon, text } = SECTIONS[section];
  return (
    <Card>
      <h2 className="sr-only">{title}</h2>
      <EmptyState
        className="py-16"
        icon={icon}
        title="Estamos preparando esta seção"
        description={`${text} Enquanto isso, acompanhe seus números no Dashboard.`}
        action={
          <Button asChild variant="outline">
            <Link to={paths.dashboard}>
              <ArrowLeft aria-hidden />
              Ir para o Dashboard
            </Link>
          </Button>
        }
      />
    </Card>
  );
}
