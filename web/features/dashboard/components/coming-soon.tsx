import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/states';
import { Card } from '../../../components/ui/card';

/** Dashboard tabs that later issues fill in. */
export function ComingSoonCard({
  icon,
  title,
  description,
  action,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  action?: ReactNode;
}) {
  return (
    <Card>
      <EmptyState className="py-14" icon={icon} title={title} description={description} action={action} />
    </Card>
  );
}
