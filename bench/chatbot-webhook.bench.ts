import { performance } from 'node:perf_hooks';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { signBody } from '../server/whatsapp/cloud-api/webhook';
import { contactRows, toCsvText, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { request } from './lib/http';
import { KeepAlivePoster } from './lib/keep-alive-poster';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { type DisparoServer, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: a burst of inbound messages through the signed Cloud API webhook. The built server
 * (a child process, like the other HTTP benchmarks) has one number on the Cloud API against a local
 * fake Graph API that answers at once and records every reply; the bot has no welcome message and
 * ten keyword rules, so each message gets exactly one reply, which names the message's keyword.
 * 200 contacts × 5 messages are posted by 50 concurrent senders, one message per webhook, a
 * contact's next message only once its previous webhook was answered (Meta delivers a sender's
 * messages in order); 5 % of the deliveries are repeated (Meta's retries). Measures the webhook's
 * answer time and the time until every reply reached the fake, and checks every message was answered
 * exactly once, in order per contact. Last, the same account sends a campaign through the same number
 * (`BENCH_WEBHOOK_CAMPAIGN_RECIPIENTS` contacts imported, the default 80 msg/s), and while it sends,
 * bursts of 100 messages from 20 new contacts arrive with 20 webhooks in flight: their answer time
 * is held to the same p99.
 */
export const name = 'chatbot-webhook';

/** Meta retries a webhook that does not answer quickly. */
const WEBHOOK_P99_MAX_MS = 50;
/** A steady stream's replies keep up: a person waits at most about a second for the bot. */
const STEADY_LAG_P99_MAX_MS = 1_000;
const PHONE_ID = '109000000000777';
const BUSINESS_ID = '209000000000777';
const TOKEN = 'EAAG-bench-webhook-token';
const APP_SECRET = 'bench-webhook-app-secret';
/** One rule per keyword; a contact's messages use five different ones, so its replies show their order. */
const KEYWORDS = [
  'preço',
  'horário',
  'entrega',
  'pagamento',
  'endereço',
  'troca',
  'garantia',
  'estoque',
  'pix',
  'boleto',
];
const replyText = (k: number) => `Sobre ${KEYWORDS[k]}: já te explico tudo, um momento.`;
/** After the last expected reply, how long to keep listening for a late extra one. */
const SETTLE_MS = 1500;
const REPLY_TIMEOUT_MS = 120_000;
/** How long the steady stream after the burst lasts. */
const STEADY_SECONDS = 4;
/** While a campaign sends: bursts of CAMPAIGN_BURST_CONTACTS × CAMPAIGN_BURST_PER_CONTACT messages, that many in flight. */
const CAMPAIGN_BURSTS = 5;
const CAMPAIGN_BURST_CONTACTS = 20;
const CAMPAIGN_BURST_PER_CONTACT = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Delivery {
  contact: number;
  /** The message's place in its contact's sequence. */
  seq: number;
  /** The whole signed request, built before the clock starts. */
  request: Buffer;
  /** A repeat of an earlier delivery (same message id, same body). */
  duplicate: boolean;
}

interface Answer {
  status: number;
  ms: number;
  applied: number;
}

/** One signed webhook delivery carrying one text message, as Meta sends it. */
function delivery(
  poster: KeepAlivePoster,
  phone: string,
  profileName: string,
  messageId: string,
  text: string,
  contact: number,
  seq: number,
) {
  const body = Buffer.from(
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: BUSINESS_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551130007777', phone_number_id: PHONE_ID },
                contacts: [{ profile: { name: profileName }, wa_id: phone }],
                messages: [
                  {
                    from: phone,
                    id: messageId,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: text },
                  },
                ],
              },
            },
          ],
        },
      ],
    }),
  );
  const request = poster.request(body, {
    'content-type': 'application/json',
    'x-hub-signature-256': signBody(body, APP_SECRET),
    'user-agent': 'facebookexternalua',
  });
  return { contact, seq, request, duplicate: false } satisfies Delivery;
}

/** POSTs one delivery; answers its status, the time to its whole answer, and what the server applied. */
async function post(poster: KeepAlivePoster, d: Delivery): Promise<Answer> {
  const { status, ms, body } = await poster.post(d.request);
  let applied = 0;
  try {
    applied = Number((JSON.parse(body) as { applied?: number }).applied ?? 0);
  } catch {
    applied = 0;
  }
  return { status, ms, applied };
}

/** Waits until the fake has received `count` sends, then until none arrives for SETTLE_MS. */
async function repliesSettled(graph: FakeGraphApi, count: number): Promise<void> {
  const deadline = Date.now() + REPLY_TIMEOUT_MS;
  while (graph.sent.length < count) {
    if (Date.now() > deadline) return;
    await sleep(5);
  }
  let seen = graph.sent.length;
  let quietSince = Date.now();
  while (Date.now() - quietSince < SETTLE_MS) {
    await sleep(50);
    if (graph.sent.length !== seen) {
      seen = graph.sent.length;
      quietSince = Date.now();
    }
  }
}

async function setUp(server: DisparoServer): Promise<{ webhookUrl: URL; cookie: string }> {
  const cookie = await unlimitedCustomer(server, 401);
  const api = async (method: string, path: string, json: unknown) => {
    const res = await request(server.url, method, path, { cookie, json });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const configured = await api('POST', '/api/whatsapp-business/configure', {
    accessToken: TOKEN,
    phoneNumberId: PHONE_ID,
    businessAccountId: BUSINESS_ID,
    appId: '123456',
    appSecret: APP_SECRET,
  });
  const webhookPath = (configured.config as { webhookPath?: string } | undefined)?.webhookPath;
  if (!webhookPath) throw new Error(`configure gave no webhook path: ${JSON.stringify(configured)}`);
  await api('PUT', '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 2,
    dailyLimit: 100_000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    channel: 'cloud',
  });
  await api('POST', '/api/bot-config', {
    isEnabled: true,
    welcomeMessage: '',
    outOfHoursMessage: '',
    aiEnabled: false,
    autoReplies: KEYWORDS.map((keyword, k) => ({ keyword, response: replyText(k) })),
  });
  return { webhookUrl: new URL(webhookPath, server.url), cookie };
}

export async function run(): Promise<BenchResult> {
  const contacts = envInt('BENCH_WEBHOOK_CONTACTS', 200, 10, 5_000);
  const perContact = envInt('BENCH_WEBHOOK_PER_CONTACT', 5, 1, KEYWORDS.length);
  const concurrency = envInt('BENCH_WEBHOOK_CONCURRENCY', 50, 1, 500);
  const messages = contacts * perContact;
  const steadyRate = envInt('BENCH_WEBHOOK_STEADY_RATE', 100, 1, 2_000);
  const campaignRecipients = envInt('BENCH_WEBHOOK_CAMPAIGN_RECIPIENTS', 5_000, 100, 100_000);

  const graph = await new FakeGraphApi().start();
  graph.keepRequests = false;
  graph.phones.set(PHONE_ID, {
    token: TOKEN,
    display_phone_number: '551130007777',
    verified_name: 'Loja Bench',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
    businessAccountId: BUSINESS_ID,
  });
  let poster: KeepAlivePoster | undefined;
  try {
    return await withServer(
      () => startDisparo(undefined, { GRAPH_API_URL: graph.url }),
      async (server) => {
        const { webhookUrl, cookie } = await setUp(server);
        poster = new KeepAlivePoster(webhookUrl);
        const client = poster;
        const phone = (c: number, warm = false) => `5511${warm ? '97' : '98'}${String(1_000_000 + c).slice(1)}0`;
        const steadyPhone = (i: number) => `551196${String(1_000_000 + i).slice(1)}0`;
        const keywordOf = (c: number, seq: number) => (c * 3 + seq) % KEYWORDS.length;
        const text = (c: number, seq: number) =>
          `Olá, boa tarde! Queria saber sobre ${KEYWORDS[keywordOf(c, seq)].toUpperCase()}, pode me ajudar?`;

        /** The deliveries of a burst from `contacts` contacts (`warm`: the warm-up's own numbers and ids). */
        const deliveries = (warm: boolean) =>
          Array.from({ length: contacts }, (_, c) =>
            Array.from({ length: perContact }, (_, seq) =>
              delivery(
                client,
                phone(c, warm),
                `${warm ? 'Aquecimento' : 'Cliente'} ${c}`,
                `wamid.${warm ? 'WARM' : 'HBgM'}${phone(c, warm)}${seq}`,
                text(c, seq),
                c,
                seq,
              ),
            ),
          );

        /**
         * Posts a burst with `concurrency` senders. Senders take the next ready delivery; a contact's
         * next message becomes ready when its previous webhook was answered, and joins the back of the
         * line, so contacts interleave.
         */
        const postBurst = async (
          byContact: Delivery[][],
          repeated: Map<Delivery, 'overlapping' | 'later'>,
          inFlight = concurrency,
        ) => {
          const repeatOf = (d: Delivery): Delivery => ({ ...d, duplicate: true });
          const ready: Delivery[] = byContact.map((list) => list[0]);
          const answers: Array<Answer & { duplicate: boolean }> = [];
          const failures: string[] = [];
          let pending = ready.length;
          let waiting: Array<() => void> = [];
          const enqueue = (d: Delivery, front = false) => {
            if (front) ready.unshift(d);
            else ready.push(d);
            pending++;
            const wake = waiting;
            waiting = [];
            for (const w of wake) w();
          };
          const t0 = performance.now();
          const sender = async () => {
            for (;;) {
              const d = ready.shift();
              if (!d) {
                if (pending === 0) return;
                await new Promise<void>((r) => waiting.push(r));
                continue;
              }
              if (!d.duplicate && repeated.get(d) === 'overlapping') enqueue(repeatOf(d), true);
              let answer: Answer;
              try {
                answer = await post(client, d);
              } catch (err) {
                answer = { status: 0, ms: Number.NaN, applied: 0 };
                failures.push((err as Error).message);
              }
              answers.push({ ...answer, duplicate: d.duplicate });
              if (answer.status && answer.status !== 200) failures.push(`HTTP ${answer.status}`);
              if (!d.duplicate) {
                const next = byContact[d.contact][d.seq + 1];
                if (next) enqueue(next);
                if (repeated.get(d) === 'later') enqueue(repeatOf(d));
              }
              pending--;
              if (pending === 0) {
                const wake = waiting;
                waiting = [];
                for (const w of wake) w();
              }
            }
          };
          await Promise.all(Array.from({ length: inFlight }, sender));
          return { t0, postedMs: performance.now() - t0, answers, failures };
        };

        // Warm-up: a server that has been running. The same burst from other contacts, answered
        // before the measured one, so that both this load generator's code and the server's are
        // compiled (a burst of 1,000 requests alone is over before V8 has optimised either).
        const warm = await postBurst(deliveries(true), new Map());
        await repliesSettled(graph, messages);
        if (warm.failures.length || graph.sent.length !== messages)
          throw new Error(
            `warm-up: ${graph.sent.length} of ${messages} replies; ${warm.failures.slice(0, 3).join('; ')}`,
          );
        const first = graph.sent.length;

        // The burst's deliveries, signed beforehand so the senders only send.
        const byContact = deliveries(false);
        // Every 20th message is delivered twice: every other repeat while the first delivery is still
        // in flight (Meta gave up waiting), the others after it was answered (a later retry).
        const repeated = new Map<Delivery, 'overlapping' | 'later'>();
        for (let i = 7, n = 0; i < messages; i += 20, n++)
          repeated.set(byContact[Math.floor(i / perContact)][i % perContact], n % 2 ? 'later' : 'overlapping');
        const { t0, postedMs, answers, failures } = await postBurst(byContact, repeated);
        await repliesSettled(graph, first + messages);

        const replies = graph.sent.slice(first);
        const times = graph.sentTimes.slice(first);
        const lastReplyAt = times.length >= messages ? times[messages - 1] : Number.NaN;
        const seconds = (lastReplyAt - t0) / 1000;
        const latency = summarize(answers.map((a) => a.ms).filter(Number.isFinite));

        // Each reply names its keyword; per contact, keywords map back to the message's place.
        const kByText = new Map(KEYWORDS.map((_, k) => [replyText(k), k]));
        const phoneIndex = new Map(byContact.map((_, c) => [phone(c), c]));
        const got = new Map<number, number[]>();
        let stray = 0;
        for (const r of replies) {
          const c = phoneIndex.get(String(r.to));
          const body = (r.text as { body?: string } | undefined)?.body ?? '';
          const k = kByText.get(body);
          const seq = c === undefined || k === undefined ? -1 : byContact[c].findIndex((_, s) => keywordOf(c, s) === k);
          if (c === undefined || seq < 0) {
            stray++;
            continue;
          }
          got.set(c, [...(got.get(c) ?? []), seq]);
        }
        let missing = 0;
        let extra = stray;
        let outOfOrder = 0;
        let repeatsAnsweredTwice = 0;
        for (let c = 0; c < contacts; c++) {
          const seqs = got.get(c) ?? [];
          for (let s = 0; s < perContact; s++) {
            const n = seqs.filter((x) => x === s).length;
            if (n === 0) missing++;
            if (n > 1) {
              extra += n - 1;
              if (repeated.has(byContact[c][s])) repeatsAnsweredTwice++;
            }
          }
          for (let i = 1; i < seqs.length; i++) if (seqs[i] < seqs[i - 1]) outOfOrder++;
        }
        if (missing || extra) console.log(`  server output:\n${server.output()}`);
        const not200 = answers.filter((a) => a.status !== 200).length;
        const applied = answers.reduce((sum, a) => sum + a.applied, 0);
        const duplicates = answers.filter((a) => a.duplicate).length;

        console.log(
          `  ${fmt(messages)} messages from ${fmt(contacts)} contacts + ${fmt(duplicates)} repeated deliveries, ${concurrency} concurrent senders; posted in ${fmt(postedMs / 1000)} s`,
        );
        // With `concurrency` webhooks always in flight, the mean answer time is concurrency ÷ webhooks/s
        // (Little's law): a slow answer is the server's queue, not only the webhook's own work.
        const webhooksPerSecond = answers.length / (postedMs / 1000);
        console.log(
          `  webhook answer p50 ${fmt(latency.p50)} ms, p95 ${fmt(latency.p95)} ms, p99 ${fmt(latency.p99)} ms, max ${fmt(latency.max)} ms, mean ${fmt(latency.mean)} ms (${fmt(latency.count)} webhooks, ${fmt(webhooksPerSecond, 0)}/s with ${concurrency} in flight)`,
        );
        console.log(
          `  every reply at the fake Graph API after ${fmt(seconds)} s: ${fmt(messages / seconds, 0)} msg/s; replies ${fmt(replies.length)}, missing ${fmt(missing)}, extra ${fmt(extra)}, repeats answered twice ${fmt(repeatsAnsweredTwice)}, order violations ${fmt(outOfOrder)}, messages applied ${fmt(applied)}`,
        );
        if (failures.length) console.log(`  failed webhooks: ${failures.slice(0, 5).join('; ')}`);

        const checks = [
          ceiling('webhook answer time p99', latency.p99, WEBHOOK_P99_MAX_MS, 'ms'),
          ceiling('webhooks not answered 200', not200, 1, ''),
          ceiling('messages not answered exactly once (missing + extra replies)', missing + extra, 1, ''),
          ceiling('repeated deliveries answered again', repeatsAnsweredTwice, 1, ''),
          ceiling('replies out of order within a contact', outOfOrder, 1, ''),
        ];
        // A steady stream after the burst: one new contact's message every 1/rate s (open loop, as
        // Meta delivers them as they happen), for several seconds. The thread is far from full, so
        // the replies must keep up however the webhooks are favoured during a burst.
        const steadyCount = steadyRate * STEADY_SECONDS;
        const firstSteady = graph.sent.length;
        const steady = Array.from({ length: steadyCount }, (_, i) =>
          delivery(client, steadyPhone(i), `Constante ${i}`, `wamid.STDY${steadyPhone(i)}`, text(i, 0), i, 0),
        );
        const postedAt: number[] = [];
        const steadyAnswers: Array<Promise<Answer>> = [];
        const s0 = performance.now();
        for (let i = 0; i < steadyCount; i++) {
          const due = s0 + (i * 1000) / steadyRate;
          const wait = due - performance.now();
          if (wait > 1) await sleep(wait);
          postedAt[i] = performance.now();
          steadyAnswers.push(post(client, steady[i]).catch(() => ({ status: 0, ms: Number.NaN, applied: 0 })));
        }
        const steadyWebhooks = await Promise.all(steadyAnswers);
        await repliesSettled(graph, firstSteady + steadyCount);
        const steadyIndex = new Map(steady.map((_, i) => [steadyPhone(i), i]));
        const lags: number[] = [];
        const answeredSteady = new Set<number>();
        let steadyExtra = 0;
        graph.sent.slice(firstSteady).forEach((r, n) => {
          const i = steadyIndex.get(String(r.to));
          if (i === undefined || answeredSteady.has(i)) {
            steadyExtra++;
            return;
          }
          answeredSteady.add(i);
          lags.push(graph.sentTimes[firstSteady + n] - postedAt[i]);
        });
        const lag = summarize(lags);
        const steadyAnswer = summarize(steadyWebhooks.map((a) => a.ms).filter(Number.isFinite));
        const steadyMissing = steadyCount - answeredSteady.size;
        console.log(
          `  steady stream: ${fmt(steadyCount)} messages at ${fmt(steadyRate)}/s; webhook answer p99 ${fmt(steadyAnswer.p99)} ms; reply lag p50 ${fmt(lag.p50)} ms, p99 ${fmt(lag.p99)} ms, max ${fmt(lag.max)} ms; missing ${fmt(steadyMissing)}, extra ${fmt(steadyExtra)}`,
        );
        checks.push(
          ceiling(`steady ${steadyRate}/s: reply lag p99`, lag.p99, STEADY_LAG_P99_MAX_MS, 'ms'),
          ceiling(`steady ${steadyRate}/s: messages not answered exactly once`, steadyMissing + steadyExtra, 1, ''),
        );

        // While a campaign sends through the same number: the dispatcher claims, sends and records its
        // rows on the same thread and the same database while new contacts write in.
        const csv = Buffer.from(toCsvText(contactRows(campaignRecipients)));
        const imported = await uploadContacts(server.url, cookie, 'campanha.csv', csv);
        if (imported.body.imported !== campaignRecipients)
          throw new Error(`campaign contacts: imported ${imported.body.imported} of ${campaignRecipients}`);
        const created = await request(server.url, 'POST', '/api/campaigns', {
          cookie,
          json: {
            name: 'Durante a campanha',
            message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
            targetType: 'contacts',
          },
        });
        if (created.status !== 200) throw new Error(`campaign create answered ${created.status}`);
        const campaignId = (JSON.parse(created.body) as { id: string }).id;
        const beforeCampaign = graph.sent.length;
        const started = await request(server.url, 'POST', `/api/campaigns/${campaignId}/send`, { cookie });
        if (started.status !== 200) throw new Error(`campaign send answered ${started.status}`);
        const sendingSince = Date.now();
        while (graph.sent.length - beforeCampaign < 20) {
          if (Date.now() - sendingSince > 30_000) throw new Error('the campaign did not start sending within 30 s');
          await sleep(20);
        }
        // Contacts of an area code the imported ones never use, so none is a campaign recipient.
        const campaignPhone = (b: number, c: number) => `554798${String(10_000 + b * 100 + c).slice(1)}00`;
        const campaignAnswers: Answer[] = [];
        const campaignFailures: string[] = [];
        const campaignPhones = new Set<string>();
        for (let b = 0; b < CAMPAIGN_BURSTS; b++) {
          const byContact = Array.from({ length: CAMPAIGN_BURST_CONTACTS }, (_, c) => {
            campaignPhones.add(campaignPhone(b, c));
            return Array.from({ length: CAMPAIGN_BURST_PER_CONTACT }, (_, seq) =>
              delivery(
                client,
                campaignPhone(b, c),
                `Durante ${b}.${c}`,
                `wamid.CAMP${campaignPhone(b, c)}${seq}`,
                text(c, seq),
                c,
                seq,
              ),
            );
          });
          const burst = await postBurst(byContact, new Map(), CAMPAIGN_BURST_CONTACTS);
          campaignAnswers.push(...burst.answers);
          campaignFailures.push(...burst.failures);
          await sleep(500);
        }
        const campaignSent = graph.sent.length - beforeCampaign;
        const campaignLatency = summarize(campaignAnswers.map((a) => a.ms).filter(Number.isFinite));
        const expectedReplies = CAMPAIGN_BURSTS * CAMPAIGN_BURST_CONTACTS * CAMPAIGN_BURST_PER_CONTACT;
        const repliesDue = Date.now() + 30_000;
        const repliesTo = () => graph.sent.filter((r) => campaignPhones.has(String(r.to))).length;
        while (repliesTo() < expectedReplies && Date.now() < repliesDue) await sleep(50);
        const campaignReplies = repliesTo();
        console.log(
          `  during a campaign (${fmt(campaignRecipients)} recipients, ${fmt(campaignSent)} sent meanwhile): ${CAMPAIGN_BURSTS} bursts of ${fmt(CAMPAIGN_BURST_CONTACTS * CAMPAIGN_BURST_PER_CONTACT)} messages from ${CAMPAIGN_BURST_CONTACTS} new contacts, ${CAMPAIGN_BURST_CONTACTS} in flight; webhook answer p50 ${fmt(campaignLatency.p50)} ms, p95 ${fmt(campaignLatency.p95)} ms, p99 ${fmt(campaignLatency.p99)} ms, max ${fmt(campaignLatency.max)} ms; replies ${fmt(campaignReplies)} of ${fmt(expectedReplies)}`,
        );
        if (campaignFailures.length) console.log(`  failed webhooks: ${campaignFailures.slice(0, 5).join('; ')}`);
        checks.push(
          ceiling('during a campaign: webhook answer time p99', campaignLatency.p99, WEBHOOK_P99_MAX_MS, 'ms'),
          ceiling(
            'during a campaign: webhooks not answered 200',
            campaignAnswers.filter((a) => a.status !== 200).length,
            1,
            '',
          ),
          ceiling('during a campaign: messages not replied', expectedReplies - campaignReplies, 1, ''),
        );

        printChecks(checks);
        return {
          name,
          checks,
          info: {
            engine: process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite',
            'webhook p50 ms': Number(latency.p50.toFixed(2)),
            'webhook p95 ms': Number(latency.p95.toFixed(2)),
            'webhook p99 ms': Number(latency.p99.toFixed(2)),
            'burst seconds': Number(seconds.toFixed(2)),
            'messages/s': Number((messages / seconds).toFixed(0)),
            'webhooks/s': Number(webhooksPerSecond.toFixed(0)),
            replies: replies.length,
            'steady reply lag p99 ms': Number(lag.p99.toFixed(2)),
            'during a campaign webhook p99 ms': Number(campaignLatency.p99.toFixed(2)),
          },
        };
      },
    );
  } finally {
    poster?.close();
    await graph.stop();
  }
}
