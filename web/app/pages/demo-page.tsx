import { Clock } from 'lucide-react';
import { Link } from 'react-router';
import { DEMO_DURATION_MS } from '../../../contract/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { paths } from '../paths';
import { usePageTitle } from '../use-page-title';

const demoHours = DEMO_DURATION_MS / 3_600_000;

/** Placeholder for the free demo signup (a later issue builds the form and the credentials screen). */
export default function DemoPage() {
  usePageTitle('Demonstração gratuita');
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center gap-6 px-4 py-12 sm:px-6">
      <div className="grid gap-2 text-center">
        <h1 className="text-3xl font-bold tracking-tight">Demonstração gratuita</h1>
        <p className="text-muted-foreground">Conheça o painel completo por {demoHours} horas, sem compromisso.</p>
      </div>
      <Card>
        <CardHeader className="items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
            <Clock aria-hidden className="size-6" />
          </span>
          <CardTitle className="mt-2">Cadastro da demonstração em preparação</CardTitle>
          <CardDescription>
            Em breve você poderá gerar seu acesso de teste aqui. Enquanto isso, crie sua conta e fale com a nossa
            equipe.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Button asChild>
            <Link to={paths.register}>Criar conta</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.home}>Voltar ao início</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
