import { useEffect } from 'react';
import { useProductName } from './public-config';

/** Sets the browser tab title: 'Campanhas · Disparo'. */
export function usePageTitle(title: string | null): void {
  const product = useProductName();
  useEffect(() => {
    document.title = title ? `${title} · ${product}` : product;
  }, [title, product]);
}
