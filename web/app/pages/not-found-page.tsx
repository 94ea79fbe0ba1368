import { Home } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { paths } from '#web/lib/paths';
import { usePageTitle } from '#web/lib/use-page-title';

export default function NotFoundPage() {
  usePageTitle('Página não encontrada');
  return (
    <div className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-bold text-brand-strong">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Página não encontrada</h1>
      <p className="text-muted-foreground">O endereço que você acessou não existe ou foi movido.</p>
      <Button asChild size="lg">
        <Link to={paths.home}>
          <Home aria-hidden />
          Voltar ao início
        </Link>
      </Button>
    </div>
  );
}
