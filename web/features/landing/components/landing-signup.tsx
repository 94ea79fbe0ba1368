import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Credentials, landingSignupForm } from '#contract/auth';
import { TOAST } from '#contract/constants';
import { msg } from '#contract/messages';
import { emailInputProps, whatsappInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { toast } from '#web/components/ui/use-toast';
import { isApiError } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { useLandingSignup } from '../api/landing-signup';

// The popup (Radix Dialog) is only needed after a signup: it stays out of the landing page's first load.
const CredentialsPopup = lazy(() => import('./credentials-popup'));

/**
 * The landing page's signup form (SPEC §2, §4, §5): all three fields required; on success the
 * credentials popup (20 s), a toast (15 s) and the move to /login after 18 s.
 */
export function LandingSignupForm() {
  const signup = useLandingSignup();
  const navigate = useNavigate();
  // The contract's schema, as the server checks it: a short number is told under its field at once, and
  // its message goes as soon as the field is typed in again.
  const form = useForm({
    resolver: zodResolver(landingSignupForm),
    defaultValues: { name: '', email: '', whatsappNumber: '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const [created, setCreated] = useState<Credentials | null>(null);
  const [popupOpen, setPopupOpen] = useState(false);

  // Mounted when the visitor opens the form (the landing page loads it then): the first field takes the focus.
  useEffect(() => {
    document.getElementById('landing-name')?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (!created) return;
    const closePopup = window.setTimeout(() => setPopupOpen(false), TOAST.landingSignupPopupMs);
    const redirect = window.setTimeout(() => navigate(paths.login), TOAST.landingSignupRedirectMs);
    return () => {
      window.clearTimeout(closePopup);
      window.clearTimeout(redirect);
    };
  }, [created, navigate]);

  const onSubmit = form.handleSubmit(
    (input) =>
      signup.mutate(input, {
        onSuccess: (res) => {
          setCreated(res.credentials);
          setPopupOpen(true);
          toast({
            title: msg.auth.registerSuccessTitle,
            description: 'Guarde suas credenciais. Você será levado ao login em instantes.',
            variant: 'success',
            durationMs: TOAST.landingSignupToastMs,
          });
        },
        onError: (error) => {
          // A taken e-mail or an invalid field is worth saying; anything else gets the spec's text.
          const specific = isApiError(error) && (error.status === 400 || error.status === 409) ? error.userMessage : '';
          toast({
            title: msg.auth.signupErrorTitle,
            description: specific || msg.auth.signupErrorDefault,
            variant: 'destructive',
          });
        },
      }),
    (invalid) => {
      if (invalid.root?.message)
        toast({
          title: msg.validation.landingRequiredTitle,
          description: invalid.root.message,
          variant: 'destructive',
        });
    },
  );

  const field = (name: 'name' | 'email' | 'whatsappNumber') => ({
    error: errors[name]?.message,
    ...form.register(name, { onChange: () => form.clearErrors(name) }),
  });

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Criar conta">
        <FormField id="landing-name" label="Nome" autoComplete="name" placeholder="Seu nome" {...field('name')} />
        <FormField id="landing-email" label="E-mail" {...emailInputProps} {...field('email')} />
        <FormField id="landing-whatsapp" label="WhatsApp" {...whatsappInputProps} {...field('whatsappNumber')} />
        <PendingButton
          type="submit"
          size="lg"
          className="w-full"
          pending={signup.isPending}
          pendingLabel="Criando conta..."
          disabled={!!created}
        >
          Criar minha conta
        </PendingButton>
        {created ? (
          <p role="status" className="text-center text-sm text-muted-foreground">
            Conta criada! Redirecionando para o login...
          </p>
        ) : null}
      </form>

      {created ? (
        <Suspense fallback={null}>
          <CredentialsPopup
            credentials={created}
            open={popupOpen}
            onOpenChange={setPopupOpen}
            onLogin={() => navigate(paths.login)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
