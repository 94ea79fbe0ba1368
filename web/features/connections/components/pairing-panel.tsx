import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatPhone } from '#contract/phone';
import { ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { DialogFooter } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { connectionsQueryKey } from '#web/lib/query-keys';
import { useConnectConnection } from '../api/connect-connection';
import { useConnection } from '../api/get-connection';
import { PairedStep, QrCodeStep } from './pairing-steps';

const CONNECT_FAILED = 'Não foi possível iniciar a conexão. Tente novamente.';

/**
 * Pairs a personal number inside a dialog: starts the connection when asked (`start`), shows the QR
 * code from the 2-second poll of the number, then 'Número conectado!' with the number once the phone
 * scanned it. Closing the dialog unmounts it, which stops the poll.
 */
export function PairingPanel({
  connectionId,
  start,
  onDone,
}: {
  connectionId: string;
  start: boolean;
  onDone: () => void;
}) {
  const detail = useConnection(connectionId);
  const connect = useConnectConnection();
  const [error, setError] = useState<string | null>(null);
  // When the last start settled: a 'disconnected' read before then is the state the start replaced.
  const [settledAt, setSettledAt] = useState(0);
  const started = useRef(false);

  useEffect(() => {
    if (!start || started.current) return;
    started.current = true;
    connect.mutate(connectionId, {
      onError: (e) => setError(errorMessage(e, CONNECT_FAILED)),
      onSettled: () => setSettledAt(Date.now()),
    });
  }, [start, connectionId, connect]);

  const retry = () => {
    setError(null);
    connect.mutate(connectionId, {
      onError: (e) => setError(errorMessage(e, CONNECT_FAILED)),
      onSettled: () => setSettledAt(Date.now()),
    });
  };

  const data = detail.data;
  const paired = data?.status === 'connected' && Boolean(data.phoneNumber);
  const queryClient = useQueryClient();
  useEffect(() => {
    // The list shows the number as soon as the dialog does.
    if (paired) void queryClient.invalidateQueries({ queryKey: connectionsQueryKey, exact: true });
  }, [paired, queryClient]);

  if (detail.isError) {
    return (
      <ErrorState
        className="py-4"
        title="Não foi possível carregar o número."
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  }

  if (data?.status === 'connected') {
    return (
      <>
        <PairedStep title="Número conectado!" testId="pairing-done">
          {data.phoneNumber ? (
            <>
              <span className="font-medium text-foreground tabular-nums">{formatPhone(data.phoneNumber)}</span> está
              pronto para enviar mensagens.
            </>
          ) : (
            'Detectando número...'
          )}
        </PairedStep>
        <DialogFooter>
          <Button onClick={onDone}>Concluir</Button>
        </DialogFooter>
      </>
    );
  }

  // The QR codes ran out (or the phone refused): the number is back to disconnected, a new pairing is one click away.
  const stopped =
    (data?.status === 'disconnected' || data?.status === 'logged_out') &&
    !connect.isPending &&
    detail.dataUpdatedAt > settledAt;
  return (
    <QrCodeStep qr={data?.qr}>
      {error ? (
        <p role="alert" className="justify-self-stretch text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {error || stopped ? (
        <Button variant="outline" onClick={retry} disabled={connect.isPending}>
          {connect.isPending ? <Spinner /> : null}
          Gerar novo QR code
        </Button>
      ) : null}
    </QrCodeStep>
  );
}
