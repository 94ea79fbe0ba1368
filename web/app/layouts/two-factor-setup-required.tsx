import { LogOut, ShieldAlert } from 'lucide-react';
import { twoFactorMsg } from '#contract/two-factor';
import { BrandMark } from '#web/components/brand-mark';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useLogout } from '#web/features/auth/api/logout';
import { TwoFactorCard } from '#web/features/settings/components/two-factor-card';
import { useProductName } from '#web/lib/public-config';

/**
 * What a login whose account requires two-factor sign-in sees until it turns it on: the notice and
 * the setup card, no menu and no other page (the server answers every other call with
 * TWO_FACTOR_REQUIRED), and 'Sair'. Once on, /me is refreshed and the usual shell replaces it.
 */
export function TwoFactorSetupRequiredPage() {
  const product = useProductName();
  const logout = useLogout();
  return (
    <div className="min-h-dvh" data-testid="two-factor-setup-required">
      <header className="sticky top-0 z-30 flex h-16 items-center justify-between gap-3 border-b bg-card px-4 sm:px-6">
        <BrandMark product={product} />
        <Button type="button" variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
          {logout.isPending ? <Spinner /> : <LogOut aria-hidden />}
          Sair
        </Button>
      </header>
      <main id="conteudo" className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-6 sm:px-6 lg:py-10">
        <h1 className="sr-only">{twoFactorMsg.title}</h1>
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900"
        >
          <ShieldAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
          <p className="text-sm font-medium">{twoFactorMsg.setupRequired}</p>
        </div>
        <TwoFactorCard heldToSetup />
      </main>
    </div>
  );
}
