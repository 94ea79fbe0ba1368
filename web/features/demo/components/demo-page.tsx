import { ArrowLeft, CircleCheck, Clock, LogIn, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type Credentials, type DemoSignupInput, demoSignupInput } from '#contract/auth';
import { DEMO_DURATION_MS } from '#contract/constants';
import { msg } from '#contract/messages';
import { countLabel } from '#contract/plural';
import { CredentialsBox } from '#web/components/credentials-box';
import { emailInputProps, whatsappInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { isApiError } from '#web/lib/api';
import { useLogin } from '#web/lib/auth/login';
import { formatDateTime } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { usePageTitle } from '#web/lib/use-page-title';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useDemoSignup } from '../api/demo-signup';

const demoHours = DEMO_DURATION_MS / 3_600_000;
const fieldNames = ['name', 'whatsappNumber', 'email'] as const;

function DemoForm({ onCreated }: { onCreated: (c: Credentials, expiresAt: string | null) => void }) {
  const signup = useDemoSignup();
  const form = useServerForm(demoSignupInput, {
    defaultValues: { name: '', whatsappNumber: '', email: '' },
    serverFields: fieldNames,
  });

  const onSubmit = form.handleSubmit((values: DemoSignupInput) =>
    signup.mutate(values, {
      onSuccess: (res) => onCreated(res.credentials, res.user.demoExpiresAt),
      onError: (error) => {
        if (!isApiError(error)) {
          toast({
            title: msg.generic.internalTitle,
            description: 'Tente novamente mais tarde',
            variant: 'destructive',
          });
          return;
        }
        form.failed(error, { title: msg.auth.demoErrorTitle, fallback: msg.auth.demoErrorDefault });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="demo-name"
        label="Nome"
        autoComplete="name"
        placeholder="Seu nome"
        {...formFieldProps(form, 'name')}
      />
      <FormField
        id="demo-whatsapp"
        label="WhatsApp"
        {...whatsappInputProps}
        {...formFieldProps(form, 'whatsappNumber')}
      />
      <FormField id="demo-email" label="Email" {...emailInputProps} {...formFieldProps(form, 'email')} />
      <PendingButton
        type="submit"
        size="lg"
        className="w-full"
        pending={signup.isPending}
        pendingLabel="Criando demonstração..."
      >
        Começar demonstração
      </PendingButton>
    </form>
  );
}

function DemoCredentials({
  credentials,
  expiresAt,
  onAnother,
}: {
  credentials: Credentials;
  expiresAt: string | null;
  onAnother: () => void;
}) {
  const login = useLogin();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="grid gap-5">
      <div className="grid justify-items-center gap-2 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
          <CircleCheck aria-hidden className="size-7" />
        </span>
        <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight focus-visible:outline-none">
          Sua demonstração está pronta!
        </h2>
        <p className="text-sm text-muted-foreground">
          Anote seu usuário e senha: eles aparecem só esta vez.
          {expiresAt ? ` O acesso expira em ${formatDateTime(expiresAt)}.` : ''}
        </p>
      </div>
      <CredentialsBox credentials={credentials} />
      <div className="grid gap-2">
        <Button
          size="lg"
          className="w-full"
          disabled={login.isPending}
          onClick={() =>
            login.mutate(credentials, {
              onError: () =>
                toast({
                  title: msg.auth.loginErrorTitle,
                  description: msg.auth.loginDefault,
                  variant: 'destructive',
                }),
            })
          }
        >
          {login.isPending ? <Spinner /> : <LogIn aria-hidden />}
          Entrar na demonstração
        </Button>
        <Button variant="outline" size="lg" className="w-full" onClick={onAnother}>
          <RotateCcw aria-hidden />
          Criar outra conta demo
        </Button>
      </div>
    </div>
  );
}

/** /demo: step 1 the signup form, step 2 the credentials, shown once (SPEC §2, §5). */
export default function DemoPage() {
  usePageTitle('Demonstração gratuita');
  const [created, setCreated] = useState<{ credentials: Credentials; expiresAt: string | null } | null>(null);
  return (
    <div className="mx-auto flex w-full max-w-lg flex-1 flex-col justify-center gap-6 px-4 py-10 sm:px-6">
      <div className="grid gap-2 text-center">
        <p className="text-sm font-semibold text-brand-ink">Passo {created ? 2 : 1} de 2</p>
        <h1 className="text-3xl font-bold tracking-tight">Demonstração gratuita</h1>
        <p className="text-muted-foreground">
          Conheça o painel completo por {countLabel(demoHours, 'hora', 'horas')}, sem compromisso.
        </p>
      </div>
      <Card>
        {created ? (
          <CardContent className="pt-6 sm:pt-6">
            <DemoCredentials
              credentials={created.credentials}
              expiresAt={created.expiresAt}
              onAnother={() => setCreated(null)}
            />
          </CardContent>
        ) : (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Clock aria-hidden className="size-5 text-brand-strong" />
                Seus dados
              </CardTitle>
              <CardDescription>Geramos um usuário e uma senha de teste na hora.</CardDescription>
            </CardHeader>
            <CardContent>
              <DemoForm onCreated={(credentials, expiresAt) => setCreated({ credentials, expiresAt })} />
            </CardContent>
          </>
        )}
      </Card>
      <Button asChild variant="ghost" className="mx-auto">
        <Link to={paths.home}>
          <ArrowLeft aria-hidden />
          Voltar ao início
        </Link>
      </Button>
    </div>
  );
}
