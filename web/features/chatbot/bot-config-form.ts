import { roleOf, type User } from '#contract/auth';
import { aiUnavailableFor, type BotConfig } from '#contract/bot';
import { type BotConfigFormDraft, botConfigBodyFromForm, botConfigFormFromConfig } from '#contract/bot-config-form';

/** Also decides what the automatic messages manager sends (its home is the contract's form module). */
export { sendsAiEnabled } from '#contract/bot-config-form';

/** The hours' day buttons (web/components/weekday-toggles.tsx) switch days with it. */
export { toggleDay } from '#web/lib/weekdays';

/**
 * Whether the dialog holds edits that 'Salvar Configuração' would store: the form and the stored
 * config give different bodies. A blank row just added, or a field typed and typed back, is no change.
 */
export function botConfigFormDirty(form: BotConfigFormDraft, stored: BotConfig): boolean {
  // An emptied minutes field keeps the stored value.
  const now = { handoffMinutes: stored.handoffMinutes, ...botConfigBodyFromForm(form, stored).body };
  const before = {
    handoffMinutes: stored.handoffMinutes,
    ...botConfigBodyFromForm(botConfigFormFromConfig(stored), stored).body,
  };
  return JSON.stringify(now) !== JSON.stringify(before);
}

/**
 * Why AI is off on this server, for the signed-in user: an administrator is told the setting to
 * fill in, a customer to ask support (no setting names on a customer's screen).
 */
export function aiUnavailableText(user: Pick<User, 'accountType' | 'isActive'>): string {
  return aiUnavailableFor(roleOf(user));
}
