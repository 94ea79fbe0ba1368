import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';

/** Draws the pairing string WhatsApp emits as a QR code, in the browser; redrawn when a new one arrives. */
export function QrCodeImage({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width: 264, errorCorrectionLevel: 'L' })
      .then((url) => live && setSrc(url))
      .catch((error) => console.warn('QR code não pôde ser desenhado', error));
    return () => {
      live = false;
    };
  }, [value]);
  if (!src) return <Skeleton className="size-64" />;
  return (
    <img
      src={src}
      alt="QR code para conectar o WhatsApp"
      width={264}
      height={264}
      className="size-64 rounded-md border bg-white p-2"
      data-testid="whatsapp-qr"
      data-qr={value}
    />
  );
}
