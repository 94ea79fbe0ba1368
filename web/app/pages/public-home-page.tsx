import { ArrowRight, Bot, Megaphone, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useProductName } from '../../features/public-config/api/get-public-config';
import { paths } from '../paths';
import { usePageTitle } from '../use-page-title';

const features = [
  { icon: Megaphone, title: 'Campanhas', text: 'Envie mensagens para todos os contatos, listas ou grupos.' },
  { icon: Bot, title: 'Chatbot', text: 'Respostas automáticas por palavra-chave e com IA.' },
  { icon: UsersRound, title: 'Contatos', text: 'Importe, organize e verifique seus contatos.' },
];

/** Placeholder start page for visitors; the full landing page comes in a later issue. */
export default function PublicHomePage() {
  const product = useProductName();
  usePageTitle(null);
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col justify-center gap-12 px-4 py-16 sm:px-6">
      <section className="grid max-w-2xl gap-6">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{product}</h1>
        <p className="text-lg text-muted-foreground">
          Campanhas de WhatsApp, chatbot e gestão de contatos para empresas brasileiras, em um só painel.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={paths.login}>Entrar</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.demo}>
              Testar grátis
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </section>
      <ul className="grid gap-4 sm:grid-cols-3">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-lg border bg-card p-5 shadow-sm">
            <Icon aria-hidden className="size-6 text-brand-strong" />
            <h2 className="mt-3 font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
