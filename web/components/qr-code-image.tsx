import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Skeleton } from './ui/skeleton';

/**
 * A WhatsApp pairing string drawn as a QR code in the browser (no image leaves the server); redrawn
 * when a new one arrives. Shared by every screen that pairs a personal number.
 */
export function QrCodeImage({
  value,
  alt = 'QR code para conectar o WhatsApp',
  testId = 'whatsapp-qr',
}: {
  value: string;
  alt?: string;
  testId?: string;
}) {
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
      alt={alt}
      width={264}
      height={264}
      className="size-64 rounded-md border bg-white p-2"
      data-testid={testId}
      data-qr={value}
    />
  );
}
