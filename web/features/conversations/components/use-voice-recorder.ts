import { useEffect, useRef, useState } from 'react';

/** What the browser records a voice note in: OGG/Opus where it can (Firefox), else WebM/Opus (Chromium). */
function recordingType(): string | null {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const type of ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm']) {
    if (MediaRecorder.isTypeSupported(type)) return type;
  }
  return null;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * Records a voice note with the microphone (MediaRecorder). `stop` hands the recording, as a file,
 * to `onRecorded`; the server turns WebM into OGG without re-encoding, so it reaches the phone as a
 * voice note that plays.
 */
export function useVoiceRecorder(onRecorded: (file: File) => void) {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState('');
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const done = useRef(onRecorded);
  done.current = onRecorded;
  const type = recordingType();

  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
      const r = recorder.current;
      if (r && r.state !== 'inactive') {
        r.onstop = null;
        r.stop();
      }
      for (const track of r?.stream.getTracks() ?? []) track.stop();
    },
    [],
  );

  const start = async () => {
    if (!type || recording) return;
    setError('');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError('Permita o uso do microfone para gravar uma mensagem de voz.');
      return;
    }
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream, { mimeType: type });
    r.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    r.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      if (timer.current) clearInterval(timer.current);
      setRecording(false);
      const blob = new Blob(chunks, { type: r.mimeType || type });
      if (!blob.size) return;
      const extension = blob.type.includes('ogg') ? 'ogg' : 'webm';
      done.current(new File([blob], `mensagem-de-voz.${extension}`, { type: blob.type }));
    };
    recorder.current = r;
    r.start(250);
    setSeconds(0);
    setRecording(true);
    timer.current = setInterval(() => setSeconds((s) => s + 1), 1000);
  };

  const stop = () => {
    const r = recorder.current;
    if (r && r.state !== 'inactive') r.stop();
  };

  return { supported: Boolean(type), recording, elapsed: clock(seconds), error, start, stop };
}
