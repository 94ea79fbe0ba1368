// Dev-time only: draws the short product clip of the landing page on a canvas in Chromium and
// records it with MediaRecorder into web/public/media/disparo-demo.webm, and renders the Open Graph
// picture web/public/og-image.jpg (both committed; nothing runs at build or run time).
// Usage: node scripts/make-media.mjs
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage();
const base64 = await page.evaluate(async () => {
  const W = 640;
  const H = 360;
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext('2d');
  const messages = [
    'Olá! Temos novidades para você.',
    'Promoção de hoje: 20% de desconto.',
    'Responda 1 para falar com a equipe.',
    'Obrigado por comprar com a gente!',
  ];
  const draw = (t) => {
    ctx.fillStyle = '#ece5dd';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#128C7E';
    ctx.fillRect(0, 0, W, 56);
    ctx.fillStyle = '#fff';
    ctx.font = 'bold 22px sans-serif';
    ctx.fillText('Disparo — campanha enviada', 20, 36);
    const shown = Math.min(messages.length, Math.floor(t / 1.4) + 1);
    for (let i = 0; i < shown; i++) {
      const y = 80 + i * 62;
      const outgoing = i % 2 === 0;
      ctx.fillStyle = outgoing ? '#dcf8c6' : '#ffffff';
      const x = outgoing ? 200 : 24;
      ctx.beginPath();
      ctx.roundRect(x, y, 416, 48, 10);
      ctx.fill();
      ctx.fillStyle = '#1f2937';
      ctx.font = '18px sans-serif';
      ctx.fillText(messages[i], x + 14, y + 30);
    }
    const sent = Math.min(1250, Math.floor(t * 160));
    ctx.fillStyle = '#075E54';
    ctx.font = 'bold 18px sans-serif';
    ctx.fillText(`${sent} mensagens enviadas`, 20, H - 20);
    ctx.fillStyle = '#25D366';
    ctx.fillRect(300, H - 34, Math.min(320, t * 40), 14);
  };
  const stream = canvas.captureStream(24);
  const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 250_000 });
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((r) => {
    recorder.onstop = r;
  });
  recorder.start();
  const start = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const t = (performance.now() - start) / 1000;
      draw(t);
      if (t < 8) requestAnimationFrame(tick);
      else resolve();
    };
    tick();
  });
  recorder.stop();
  await done;
  const buf = await new Blob(chunks, { type: 'video/webm' }).arrayBuffer();
  let s = '';
  const bytes = new Uint8Array(buf);
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
});
writeFileSync(new URL('../web/public/media/disparo-demo.webm', import.meta.url), Buffer.from(base64, 'base64'));
console.log('wrote web/public/media/disparo-demo.webm');

const og = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await og.setContent(`<body style="margin:0;width:1200px;height:630px;display:flex;flex-direction:column;justify-content:center;
  padding:0 80px;box-sizing:border-box;background:linear-gradient(135deg,#075e54,#128c7e);color:#fff;font-family:sans-serif">
  <p style="font-size:40px;font-weight:700;margin:0 0 24px">Disparo</p>
  <h1 style="font-size:64px;line-height:1.1;margin:0 0 24px">Campanhas de WhatsApp, chatbot e contatos em um só painel</h1>
  <p style="font-size:30px;margin:0;color:#dcf8c6">Planos a partir de R$ 25 · Garantia de 7 dias · Teste grátis</p></body>`);
await og.screenshot({
  path: new URL('../web/public/og-image.jpg', import.meta.url).pathname,
  type: 'jpeg',
  quality: 80,
});
console.log('wrote web/public/og-image.jpg');
await browser.close();
