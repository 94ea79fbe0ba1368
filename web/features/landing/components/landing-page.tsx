import {
  ArrowRight,
  BarChart3,
  Bot,
  Clock,
  FileSpreadsheet,
  Mail,
  Megaphone,
  MessageCircle,
  QrCode,
  Quote,
  Send,
  ShieldCheck,
  UsersRound,
} from 'lucide-react';
import { lazy, type MouseEvent, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { DEMO_DURATION_MS } from '#contract/constants';
import { whatsappLink } from '#contract/links';
import { MONEY_BACK_GUARANTEE_DAYS, PLANS } from '#contract/plans';
import { countLabel } from '#contract/plural';
import { BrandMark } from '#web/components/brand-mark';
import { PaymentLinkButton, PlanCard } from '#web/components/plan-card';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { formatCount, formatPercent } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { usePublicConfig } from '#web/lib/public-config';
import { usePageTitle } from '#web/lib/use-page-title';
import { cn } from '#web/lib/utils';
import { formatCountdown, useLoopingCountdown } from './use-countdown';
import { VideoPlayer } from './video-player';

// The signup form (react-hook-form and the contract's zod schemas) stays out of the first view: it loads
// when the visitor opens it, or earlier when a pointer or the focus reaches a button that does.
const loadSignupForm = () => import('./landing-signup');
const LandingSignupForm = lazy(() => loadSignupForm().then((m) => ({ default: m.LandingSignupForm })));
const prefetchSignupForm = () => void loadSignupForm();

const SECTIONS = [
  { id: 'recursos', label: 'Recursos' },
  { id: 'como-funciona', label: 'Como funciona' },
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'precos', label: 'Preços' },
] as const;

const FEATURES = [
  {
    icon: Megaphone,
    title: 'Campanhas em massa',
    text: 'Envie para todos os contatos, listas ou grupos, com ritmo seguro.',
  },
  { icon: Bot, title: 'Chatbot com IA', text: 'Boas-vindas, respostas por palavra-chave e IA quando você quiser.' },
  { icon: UsersRound, title: 'Contatos e grupos', text: 'Organize com etiquetas e veja quem realmente usa WhatsApp.' },
  { icon: FileSpreadsheet, title: 'Importação fácil', text: 'Traga seus contatos de planilhas CSV, TXT ou Excel.' },
  { icon: BarChart3, title: 'Relatórios', text: 'Acompanhe envios, entregas e respostas de cada campanha.' },
  { icon: Clock, title: 'Horário comercial', text: 'Defina o expediente: campanhas e bot respeitam seus horários.' },
];

const STEPS = [
  {
    icon: QrCode,
    title: 'Conecte seu WhatsApp',
    text: 'Escaneie o QR code ou use a API oficial do WhatsApp Business.',
  },
  { icon: UsersRound, title: 'Importe seus contatos', text: 'Suba sua planilha e organize contatos em grupos.' },
  { icon: Send, title: 'Dispare e acompanhe', text: 'Crie a campanha, envie e veja os resultados em tempo real.' },
];

// Sample figures, presented as an illustration (no customer's data).
const SAMPLE_METRICS = [
  { label: 'Mensagens enviadas', value: formatCount(12_480) },
  { label: 'Contatos ativos', value: formatCount(3_215) },
  { label: 'Taxa de abertura', value: formatPercent(87.4) },
  { label: 'Respostas automáticas', value: formatCount(1_932) },
];

const TESTIMONIALS = [
  {
    quote: 'Organizamos as promoções da semana em minutos e o bot responde os clientes fora do expediente.',
    name: 'Carla M.',
    role: 'Loja de roupas, Belo Horizonte',
  },
  {
    quote: 'A importação da planilha e os grupos facilitaram muito o contato com nossos alunos.',
    name: 'Ricardo S.',
    role: 'Escola de idiomas, Curitiba',
  },
  {
    quote: 'Os relatórios mostram quem recebeu e quem respondeu. Ficou fácil medir cada campanha.',
    name: 'Fernanda L.',
    role: 'Clínica odontológica, Recife',
  },
];

function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
  window.history.replaceState(window.history.state, '', `#${id}`);
}

function SectionLink({ id, label, className }: { id: string; label: string; className?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    scrollToSection(id);
  };
  return (
    <a href={`#${id}`} onClick={onClick} className={className}>
      {label}
    </a>
  );
}

const navLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring';

function SectionHeading({ id, eyebrow, title, text }: { id: string; eyebrow: string; title: string; text?: string }) {
  return (
    <div className="mx-auto grid max-w-2xl gap-3 text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">{eyebrow}</p>
      <h2 id={`${id}-titulo`} className="text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h2>
      {text ? <p className="text-lg text-muted-foreground">{text}</p> : null}
    </div>
  );
}

/** The public sales page '/' (SPEC §2, §4, §9). */
export default function LandingPage() {
  const config = usePublicConfig().data;
  const product = config?.productName ?? 'Disparo';
  usePageTitle(null);
  const remaining = useLoopingCountdown();
  const [signupOpen, setSignupOpen] = useState(false);
  const signupRef = useRef<HTMLElement>(null);

  // Arriving at /#precos (the dashboard's upgrade card), the section exists only after rendering.
  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  // The form focuses its first field once it has loaded (see LandingSignupForm).
  const openSignup = () => {
    setSignupOpen(true);
    requestAnimationFrame(() => {
      signupRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
    });
  };

  const supportLink = config ? whatsappLink(config.supportWhatsapp, `Olá! Quero saber mais sobre o ${product}.`) : null;
  const demoHours = DEMO_DURATION_MS / 3_600_000;

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#conteudo"
        className="sr-only z-50 rounded-md bg-card px-4 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Pular para o conteúdo
      </a>
      <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/85">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-4 px-4 sm:px-6">
          <Link to={paths.home} className="flex items-center gap-2 rounded-md text-lg font-semibold">
            <BrandMark product={product} />
          </Link>
          <nav aria-label="Seções da página" className="ml-4 hidden items-center gap-1 md:flex">
            {SECTIONS.map((s) => (
              <SectionLink key={s.id} id={s.id} label={s.label} className={navLinkClass} />
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <Button asChild variant="ghost" size="sm">
              <Link to={paths.login}>Entrar</Link>
            </Button>
            <Button asChild size="sm">
              <Link to={paths.demo}>Testar grátis</Link>
            </Button>
          </div>
        </div>
        {/* Every section link stays visible on a phone: the row wraps instead of scrolling out of sight. */}
        <nav aria-label="Seções da página (celular)" className="border-t md:hidden">
          <div className="mx-auto flex max-w-6xl flex-wrap justify-center px-1 py-1">
            {SECTIONS.map((s) => (
              <SectionLink
                key={s.id}
                id={s.id}
                label={s.label}
                className={cn(navLinkClass, 'px-2 whitespace-nowrap')}
              />
            ))}
          </div>
        </nav>
      </header>

      <main id="conteudo" className="flex-1">
        <section aria-labelledby="hero-titulo" className="bg-gradient-to-b from-brand-soft to-background">
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:items-center lg:py-20">
            <div className="grid gap-6">
              <p
                className="inline-flex w-fit items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900"
                data-testid="landing-countdown-banner"
              >
                <Clock aria-hidden className="size-4" />
                Oferta de lançamento termina em{' '}
                <span className="tabular-nums" data-testid="landing-countdown" role="timer" aria-live="off">
                  {formatCountdown(remaining)}
                </span>
              </p>
              <h1 id="hero-titulo" className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">
                Campanhas de WhatsApp, chatbot e contatos em um só painel
              </h1>
              <p className="text-lg text-muted-foreground">
                O {product} envia suas campanhas com ritmo seguro, responde clientes automaticamente e mostra o
                resultado de cada mensagem.
              </p>
              <div className="flex flex-col gap-3 sm:flex-row">
                <Button size="lg" onClick={openSignup} onPointerEnter={prefetchSignupForm} onFocus={prefetchSignupForm}>
                  Criar minha conta
                  <ArrowRight aria-hidden />
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to={paths.demo}>Testar grátis por {countLabel(demoHours, 'hora', 'horas')}</Link>
                </Button>
              </div>
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <ShieldCheck aria-hidden className="size-4 text-brand-strong" />
                Garantia de {countLabel(MONEY_BACK_GUARANTEE_DAYS, 'dia', 'dias')}: não gostou, devolvemos seu dinheiro.
              </p>
            </div>
            <div className="rounded-lg border bg-card p-5 shadow-md" aria-hidden>
              <div className="flex items-center justify-between border-b pb-3">
                <p className="font-semibold">Campanha: Ofertas da semana</p>
                <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand-ink">
                  Enviando
                </span>
              </div>
              <ul className="grid gap-2 pt-4 text-sm">
                {['Olá, Ana! Chegaram novidades', 'Responda 1 para ver o catálogo', 'Frete grátis até domingo'].map(
                  (line, i) => (
                    <li
                      key={line}
                      className={`w-fit max-w-[85%] rounded-lg px-3 py-2 ${i % 2 ? 'bg-muted' : 'ml-auto bg-brand-soft'}`}
                    >
                      {line}
                    </li>
                  ),
                )}
              </ul>
            </div>
          </div>
        </section>

        <section id="recursos" aria-labelledby="recursos-titulo" className="scroll-mt-28 py-16 md:scroll-mt-20">
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 sm:px-6">
            <SectionHeading
              id="recursos"
              eyebrow="Recursos"
              title="Tudo o que sua empresa precisa no WhatsApp"
              text="Do primeiro contato à venda, sem planilhas soltas nem mensagens uma a uma."
            />
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <li key={title} className="rounded-lg border bg-card p-5 shadow-sm">
                  <Icon aria-hidden className="size-6 text-brand-strong" />
                  <h3 className="mt-3 font-semibold">{title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section
          id="como-funciona"
          aria-labelledby="como-funciona-titulo"
          className="scroll-mt-28 border-y bg-card py-16 md:scroll-mt-20"
        >
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 sm:px-6">
            <SectionHeading id="como-funciona" eyebrow="Como funciona" title="Três passos para sua primeira campanha" />
            <div className="grid gap-8 lg:grid-cols-2 lg:items-center">
              <ol className="grid gap-5">
                {STEPS.map(({ icon: Icon, title, text }, i) => (
                  <li key={title} className="flex gap-4">
                    <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-deep font-semibold text-white">
                      {i + 1}
                    </span>
                    <div>
                      <h3 className="flex items-center gap-2 font-semibold">
                        <Icon aria-hidden className="size-4 text-brand-strong" />
                        {title}
                      </h3>
                      <p className="mt-1 text-sm text-muted-foreground">{text}</p>
                    </div>
                  </li>
                ))}
              </ol>
              <VideoPlayer />
            </div>
          </div>
        </section>

        <section id="dashboard" aria-labelledby="dashboard-titulo" className="scroll-mt-28 py-16 md:scroll-mt-20">
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 sm:px-6">
            <SectionHeading
              id="dashboard"
              eyebrow="Dashboard"
              title="Seus números sempre à vista"
              text="Envios, contatos, aberturas e respostas do bot em um painel simples."
            />
            <figure className="grid gap-3 rounded-lg border bg-card p-5 shadow-sm">
              <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
                {SAMPLE_METRICS.map((m) => (
                  <div key={m.label} className="rounded-md border bg-background p-4">
                    <dt className="text-sm text-muted-foreground">{m.label}</dt>
                    <dd className="mt-1 text-2xl font-bold tabular-nums">{m.value}</dd>
                  </div>
                ))}
              </dl>
              <figcaption className="text-xs text-muted-foreground">
                Exemplo ilustrativo: números fictícios, apenas para mostrar o painel.
              </figcaption>
            </figure>
          </div>
        </section>

        <section aria-labelledby="depoimentos-titulo" className="border-y bg-card py-16">
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 sm:px-6">
            <SectionHeading
              id="depoimentos"
              eyebrow="Depoimentos"
              title="Como empresas usam o painel"
              text="Relatos de exemplo do dia a dia de quem vende pelo WhatsApp."
            />
            <ul className="grid gap-4 md:grid-cols-3">
              {TESTIMONIALS.map((t) => (
                <li key={t.name}>
                  <figure className="flex h-full flex-col gap-4 rounded-lg border bg-background p-5">
                    <Quote aria-hidden className="size-5 text-brand-strong" />
                    <blockquote className="flex-1 text-sm">“{t.quote}”</blockquote>
                    <figcaption className="text-sm">
                      <span className="font-semibold">{t.name}</span>
                      <span className="block text-muted-foreground">{t.role}</span>
                    </figcaption>
                  </figure>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="precos" aria-labelledby="precos-titulo" className="scroll-mt-28 py-16 md:scroll-mt-20">
          <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 sm:px-6">
            <SectionHeading
              id="precos"
              eyebrow="Preços"
              title="Escolha seu plano"
              text={`Pagamento seguro pelo link do plano. Depois, fale com a nossa equipe para liberar o acesso. Garantia de ${countLabel(MONEY_BACK_GUARANTEE_DAYS, 'dia', 'dias')} em todos os planos.`}
            />
            <div className="grid gap-6 pt-3 sm:grid-cols-2 lg:grid-cols-4">
              {PLANS.map((plan) => (
                <PlanCard
                  key={plan.type}
                  plan={plan}
                  highlight={plan.type === 'professional'}
                  badge={plan.type === 'professional' ? 'Mais escolhido' : undefined}
                  action={
                    config ? (
                      <PaymentLinkButton href={config.paymentUrls[plan.type]} label={`Assinar ${plan.name}`} />
                    ) : (
                      <Button size="lg" className="w-full" disabled>
                        Assinar {plan.name}
                      </Button>
                    )
                  }
                />
              ))}
            </div>
            <p className="text-center text-sm text-muted-foreground">
              Prefere testar antes?{' '}
              <Link to={paths.demo} className="font-medium text-brand-ink underline underline-offset-4">
                Comece a demonstração gratuita
              </Link>{' '}
              ou{' '}
              <button
                type="button"
                onClick={openSignup}
                onPointerEnter={prefetchSignupForm}
                onFocus={prefetchSignupForm}
                className="font-medium text-brand-ink underline underline-offset-4"
              >
                crie sua conta
              </button>
              .
            </p>
          </div>
        </section>

        <section
          id="cadastro"
          ref={signupRef}
          hidden={!signupOpen}
          aria-labelledby="cadastro-titulo"
          className="scroll-mt-28 border-t bg-card py-16 md:scroll-mt-20"
        >
          <div className="mx-auto grid w-full max-w-md gap-6 px-4 sm:px-6">
            <div className="grid gap-2 text-center">
              <h2 id="cadastro-titulo" className="text-2xl font-bold tracking-tight">
                Crie sua conta
              </h2>
              <p className="text-sm text-muted-foreground">
                Geramos seu usuário e senha na hora. A liberação é feita pela nossa equipe.
              </p>
            </div>
            {signupOpen ? (
              <Suspense
                fallback={
                  <div className="flex justify-center py-8 text-brand-strong">
                    <Spinner className="size-6" />
                  </div>
                }
              >
                <LandingSignupForm />
              </Suspense>
            ) : null}
          </div>
        </section>
      </main>

      <footer id="contato" className="border-t bg-brand-deep text-white">
        <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-10 sm:px-6 md:grid-cols-2">
          <div className="grid gap-2">
            <p className="text-lg font-semibold">{product}</p>
            <p className="text-sm text-white/80">
              Campanhas de WhatsApp, chatbot e contatos para empresas brasileiras.
            </p>
          </div>
          <address className="grid gap-2 text-sm not-italic md:justify-end">
            <p className="font-semibold">Contato</p>
            {config ? (
              <>
                <a
                  href={supportLink ?? undefined}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex items-center gap-2 underline-offset-4 hover:underline"
                >
                  <MessageCircle aria-hidden className="size-4" />
                  WhatsApp: {config.supportWhatsapp}
                </a>
                <p className="flex items-center gap-2" data-testid="landing-support-email">
                  <Mail aria-hidden className="size-4" />
                  E-mail: {config.supportEmailMasked}
                </p>
              </>
            ) : null}
          </address>
        </div>
        <p className="border-t border-white/15 py-4 text-center text-xs text-white/80">
          © {new Date().getFullYear()} {product}. Todos os direitos reservados.
        </p>
      </footer>
    </div>
  );
}
