import './zod-locale';
import { z } from 'zod';
import { msg } from './messages';
import { planTypes } from './plans';
import { text } from './text';

const v = msg.validation;

export const accountTypes = ['demo', 'pending', 'active', 'admin', 'regular'] as const;
export type AccountType = (typeof accountTypes)[number];

const trimmed = () => text({ error: v.invalidRequest }).trim();

export const usernameField = trimmed()
  .min(3, v.usernameMin)
  .max(50, v.usernameMax)
  .regex(/^[A-Za-z0-9._-]+$/, v.usernameChars);
export const passwordField = text({ error: v.passwordMin }).min(6, v.passwordMin).max(128, v.passwordMax);
export const nameField = trimmed().min(2, v.nameMin).max(100, v.nameMax);
export const emailField = trimmed().max(254, v.email).pipe(z.email(v.email));

const phoneChars = /^[\d+\-\s()]+$/;
const digitCount = (s: string) => s.replace(/\D/g, '').length;

/**
 * The WhatsApp number in every form that takes one (register, demo, landing, profile, pairing by
 * code), written as people write it: '(11) 99999-9999', '+55 11 99999-9999'. The first rule broken
 * is the one reported, so '1234' reads 'pelo menos 10 dígitos', never 'obrigatório'.
 */
export const whatsappNumberField = trimmed()
  .min(1, { error: v.whatsappRequired, abort: true })
  .max(20, { error: v.whatsappMax, abort: true })
  .regex(phoneChars, { error: v.whatsappFormat, abort: true })
  .refine((s) => digitCount(s) >= 10, { error: v.whatsappMin, abort: true })
  .refine((s) => digitCount(s) <= 15, v.whatsappMaxDigits);

/** The same number where it may be left empty (the profile of an account created without one). */
export const optionalWhatsappNumberField = trimmed().check((ctx) => {
  if (ctx.value === '') return;
  const result = whatsappNumberField.safeParse(ctx.value);
  if (!result.success) ctx.issues.push({ code: 'custom', message: result.error.issues[0].message, input: ctx.value });
});

export const loginInput = z.object({
  username: trimmed().min(3, v.usernameMin).max(254, v.usernameMax),
  password: text({ error: v.passwordMin }).min(6, v.passwordMin).max(128, v.passwordMax),
});
export type LoginInput = z.infer<typeof loginInput>;

export const registerInput = z.object({
  name: nameField,
  email: emailField,
  username: usernameField,
  password: passwordField,
  whatsappNumber: whatsappNumberField,
});
export type RegisterInput = z.infer<typeof registerInput>;

export const demoSignupInput = z.object({
  name: nameField,
  whatsappNumber: whatsappNumberField,
  email: emailField,
});
export type DemoSignupInput = z.infer<typeof demoSignupInput>;

/** Landing page form: every field required, one message for a missing name or e-mail (SPEC §5). */
export const landingSignupInput = z.object({
  name: trimmed().min(1, v.landingRequired).max(100, v.nameMax),
  email: trimmed().min(1, v.landingRequired).max(254, v.email).pipe(z.email(v.email)),
  whatsappNumber: whatsappNumberField,
});
export type LandingSignupInput = z.infer<typeof landingSignupInput>;

/**
 * The landing page's form: a field left empty is told once for the whole form (the 'root' error, shown
 * as a toast, SPEC §5); then `landingSignupInput`'s rules, each under its field.
 */
export const landingSignupForm = z
  .object({ name: z.string(), email: z.string(), whatsappNumber: z.string() })
  .refine((f) => Boolean(f.name.trim() && f.email.trim() && f.whatsappNumber.trim()), {
    message: v.landingRequired,
    path: ['root'],
  })
  .pipe(landingSignupInput);

/** A login's role in its account's team (contract/team.ts): the one who registered is its owner. */
export const teamRoles = ['owner', 'manager', 'agent'] as const;
export type TeamRole = (typeof teamRoles)[number];

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  whatsappNumber: z.string(),
  accountType: z.enum(accountTypes),
  planType: z.enum(planTypes),
  isActive: z.boolean(),
  createdAt: z.string(),
  demoExpiresAt: z.string().nullable(),
  /** When the owner confirmed the address through the e-mailed link; null until then. Added to SPEC's shape. */
  emailConfirmedAt: z.string().nullable().optional(),
  /**
   * The login's role in the account's team; added to SPEC's shape. A member's `id`, `name`, `email`
   * and `username` are its own; `accountType`, `planType` and `demoExpiresAt` are the account's.
   */
  teamRole: z.enum(teamRoles).optional(),
  /** The name of the account a member works for (its owner's company or name); absent for the owner. */
  accountName: z.string().optional(),
  /** The login signs in with a second factor (contract/two-factor.ts). */
  twoFactorEnabled: z.boolean().optional(),
  /** The account requires a second factor and this login has none yet: the app sends it to set one up. */
  twoFactorSetupRequired: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const credentialsSchema = z.object({ username: z.string(), password: z.string() });
export type Credentials = z.infer<typeof credentialsSchema>;

export const loginResponse = z.object({ success: z.literal(true), message: z.string(), user: userSchema });
export const demoSignupResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  credentials: credentialsSchema,
  user: userSchema.pick({ email: true, demoExpiresAt: true }),
});
export const landingSignupResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  credentials: credentialsSchema,
  user: z.object({ email: z.string() }),
});

/** What the app may do, derived from the account (SPEC §6). */
export type Role = 'admin' | 'customer' | 'demo' | 'pending' | 'inactive';

export function roleOf(user: Pick<User, 'accountType' | 'isActive'>): Role {
  switch (user.accountType) {
    case 'admin':
      return 'admin';
    case 'demo':
      return 'demo';
    case 'pending':
      return 'pending';
    default:
      return user.isActive ? 'customer' : 'inactive';
  }
}
