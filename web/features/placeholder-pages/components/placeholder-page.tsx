import { ArrowLeft, BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyState } from '../../../components/states';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/** The sections still waiting for their real pages; drop an entry when its page is built. */
const PLACEHOLDERS = {
  reports: { title: 'Relatórios', icon: BarChart3, text: 'Aqui você vai acompanhar entregas, respostas e desempenho.' },
} as const;

export type PlaceholderSection = keyof typeof PLACEHOLDERS;

/**
 * Placeholder for the sections a later issue builds; the page title comes from the shell's header.
 */
export default function PlaceholderPage({ section }: { section: PlaceholderSection }) {
  const { title, icon, text } = PLACEHOLDERS[section];
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
