/** Plans of SPEC §9. Prices in BRL. `contactLimit` null means unlimited. */

export const planTypes = ['basic', 'professional', 'enterprise', 'premium', 'admin', 'demo'] as const;
export type PlanType = (typeof planTypes)[number];

export const sellablePlanTypes = ['basic', 'professional', 'enterprise', 'premium'] as const;
export type SellablePlanType = (typeof sellablePlanTypes)[number];

export interface Plan {
  type: SellablePlanType;
  name: string;
  label: string;
  period: string;
  price: number;
  listPrice: number;
  contactLimit: number | null;
  note?: string;
}

export const PLANS: readonly Plan[] = [
  {
    type: 'basic',
    name: 'Básico',
    label: 'Plano Básico',
    period: 'mensal',
    price: 25,
    listPrice: 30,
    contactLimit: 5_000,
    note: 'primeiro mês',
  },
  {
    type: 'professional',
    name: 'Profissional',
    label: 'Plano Profissional',
    period: 'trimestral',
    price: 60,
    listPrice: 90,
    contactLimit: 15_000,
  },
  {
    type: 'enterprise',
    name: 'Enterprise',
    label: 'Plano Enterprise',
    period: 'semestral',
    price: 100,
    listPrice: 180,
    contactLimit: null,
  },
  {
    type: 'premium',
    name: 'Premium',
    label: 'Plano Premium',
    period: 'anual',
    price: 180,
    listPrice: 360,
    contactLimit: null,
  },
];

export const MONEY_BACK_GUARANTEE_DAYS = 7;

const PLAN_LABELS: Record<PlanType, string> = {
  basic: 'Plano Básico',
  professional: 'Plano Profissional',
  enterprise: 'Plano Enterprise',
  premium: 'Plano Premium',
  admin: 'Administrador',
  demo: 'Demo',
};

export function planLabel(planType: string): string {
  return PLAN_LABELS[planType as PlanType] ?? planType;
}

export function contactLimitFor(planType: string): number | null {
  if (planType === 'admin') return null;
  if (planType === 'demo') return 50;
  // Enterprise and Premium (the top tier) are unlimited; an unknown plan gets the smallest limit.
  const plan = PLANS.find((p) => p.type === planType) ?? PLANS[0];
  return plan.contactLimit;
}

/**
 * How many WhatsApp numbers a plan allows (null: unlimited). The "Números" API enforces it and the
 * plan cards (landing page, Configurações › Planos) show it. An unknown plan gets the smallest.
 */
export const CONNECTION_LIMITS: Record<PlanType, number | null> = {
  basic: 1,
  professional: 3,
  enterprise: 5,
  premium: 10,
  admin: null,
  demo: 1,
};

export function connectionLimitFor(planType: string): number | null {
  return planType in CONNECTION_LIMITS ? CONNECTION_LIMITS[planType as PlanType] : 1;
}

/** A plan card's line on numbers: '1 número de WhatsApp', 'Até 3 números de WhatsApp', unlimited. */
export function connectionLimitText(limit: number | null): string {
  if (limit === null) return 'Números de WhatsApp ilimitados';
  return limit === 1 ? '1 número de WhatsApp' : `Até ${limit} números de WhatsApp`;
}

/**
 * Room for the account's files per plan, in MB: every file the account stores (images, documents,
 * audio, video, stickers, files fetched from a link), whether its bytes are in the database or in
 * the media store. Files contacts send are not counted: the account does not choose them, and a
 * customer's incoming message is never refused. `UPLOADS_QUOTA_MB`, when set, replaces it for every
 * plan (server/config.ts). An unknown plan gets the smallest.
 */
export const STORAGE_LIMITS_MB: Record<PlanType, number> = {
  basic: 500,
  professional: 2_048,
  enterprise: 5_120,
  premium: 10_240,
  admin: 10_240,
  demo: 100,
};

export function storageLimitMb(planType: string, overrideMb?: number): number {
  if (overrideMb !== undefined) return overrideMb;
  return planType in STORAGE_LIMITS_MB ? STORAGE_LIMITS_MB[planType as PlanType] : STORAGE_LIMITS_MB.basic;
}

/** A size as a person reads it: '500 MB', '1,5 GB', '320 KB'. */
export function storageSizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} GB`;
  if (mb >= 1) return `${mb.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`;
  return `${Math.ceil(bytes / 1024).toLocaleString('pt-BR')} KB`;
}

/**
 * How many people may work in one account, its owner included (Equipe): members and invitations
 * still open count. The team API refuses one more, in pt-BR. An unknown plan gets the smallest.
 */
export const TEAM_MEMBER_LIMITS: Record<PlanType, number> = {
  basic: 2,
  professional: 5,
  enterprise: 15,
  premium: 50,
  admin: 50,
  demo: 1,
};

export function teamMemberLimitFor(planType: string): number {
  return planType in TEAM_MEMBER_LIMITS ? TEAM_MEMBER_LIMITS[planType as PlanType] : TEAM_MEMBER_LIMITS.basic;
}
