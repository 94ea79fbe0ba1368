import type { Role } from '#contract/auth';
import { PLANS, planLabel } from '#contract/plans';
import { PaymentLinkButton, PlanCard } from '#web/components/plan-card';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { usePublicConfig } from '#web/lib/public-config';

const NOTE: Partial<Record<Role, string>> = {
  admin: 'Administrador: acesso total ao sistema, recursos ilimitados.',
  demo: 'Você está na demonstração. Para assinar, use a página de preços depois do teste.',
  pending: 'Sua conta aguarda liberação. Depois de aprovada, você poderá fazer upgrade por aqui.',
  inactive: 'Sua conta está desativada. Fale com o suporte para reativá-la.',
};

/** The four plans with the current one marked; upgrades through the payment link, active customers only (SPEC §6). */
export function PlansSection({ planType, role }: { planType: string; role: Role }) {
  const config = usePublicConfig().data;
  const canUpgrade = role === 'customer';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Planos</CardTitle>
        <CardDescription>
          Seu plano: <strong className="text-foreground">{planLabel(planType)}</strong>
          {NOTE[role] ? <span className="block pt-1">{NOTE[role]}</span> : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid gap-6 pt-3 sm:grid-cols-2 xl:grid-cols-4">
          {PLANS.map((plan, index) => {
            const current = plan.type === planType;
            const isUpgrade = index > PLANS.findIndex((p) => p.type === planType);
            return (
              <PlanCard
                key={plan.type}
                plan={plan}
                highlight={current}
                badge={current ? 'Plano atual' : undefined}
                action={
                  current ? (
                    <Badge tone="brand" className="w-full justify-center py-2">
                      Seu plano atual
                    </Badge>
                  ) : canUpgrade && config ? (
                    <PaymentLinkButton
                      href={config.paymentUrls[plan.type]}
                      label={isUpgrade ? 'Fazer upgrade' : 'Mudar para este plano'}
                    />
                  ) : null
                }
              />
            );
          })}
        </div>
      </CardContent>
    </Card>
  );
}
