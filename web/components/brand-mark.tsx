import { MessageCircle } from 'lucide-react';

/**
 * The product's logo and name, as the headers' home link shows them: `large` on the login page,
 * `onDark` on its dark side panel.
 */
export function BrandMark({
  product,
  large = false,
  onDark = false,
}: {
  product: string;
  large?: boolean;
  onDark?: boolean;
}) {
  const size = large ? 'size-9' : 'size-8';
  const colors = onDark ? 'bg-brand text-primary-foreground' : 'bg-brand-strong text-white';
  return (
    <>
      <span className={`flex ${size} items-center justify-center rounded-lg ${colors}`}>
        <MessageCircle aria-hidden className={large ? 'size-5' : 'size-4'} />
      </span>
      {product}
    </>
  );
}
