import { type ReactNode, Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { BrandMark } from '#web/components/brand-mark';
import { FullPageLoader } from '#web/components/states';
import { paths } from '#web/lib/paths';
import { usePublicConfig } from '#web/lib/public-config';

/** Shell of the public pages (home, demo, not found): brand bar, content, footer. Renders `children` or the outlet. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const config = usePublicConfig().data;
  const product = config?.productName ?? 'Disparo';
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center px-4 sm:px-6">
          <Link to={paths.home} className="flex items-center gap-2 rounded-md text-lg font-semibold">
            <BrandMark product={product} />
          </Link>
        </div>
      </header>
      <main id="conteudo" className="flex flex-1 flex-col">
        <Suspense fallback={<FullPageLoader />}>{children ?? <Outlet />}</Suspense>
      </main>
      <footer className="border-t bg-card">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-1 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:justify-between sm:px-6">
          <p>
            © {new Date().getFullYear()} {product}. Todos os direitos reservados.
          </p>
          {config?.supportEmailMasked ? <p>Suporte: {config.supportEmailMasked}</p> : null}
        </div>
      </footer>
    </div>
  );
}
