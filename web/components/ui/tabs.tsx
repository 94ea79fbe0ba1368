import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { type ComponentProps, useCallback, useEffect, useRef, useState } from 'react';
import { cn } from '#web/lib/utils';

export const Tabs = TabsPrimitive.Root;

/** Room kept between a tab scrolled into view and the edge, so the edge's fade does not cover it. */
const EDGE_PX = 40;

function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The tab bar. On a narrow screen it scrolls sideways inside itself instead of widening the page,
 * and says so: the edge with more tabs behind it fades out under a chevron button (pointer users
 * click it; keyboard users keep Radix's arrow keys), and the active or focused tab is scrolled into
 * view, so a tab opened from the URL or reached with the arrows is never hidden.
 */
export function TabsList({ className, children, ref, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  const listRef = useRef<HTMLDivElement | null>(null);
  const [overflow, setOverflow] = useState({ start: false, end: false });

  const setRefs = useCallback(
    (node: HTMLDivElement | null) => {
      listRef.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) (ref as { current: HTMLDivElement | null }).current = node;
    },
    [ref],
  );

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const max = list.scrollWidth - list.clientWidth;
    const next = { start: list.scrollLeft > 1, end: list.scrollLeft < max - 1 };
    setOverflow((prev) => (prev.start === next.start && prev.end === next.end ? prev : next));
  }, []);

  const reveal = useCallback((tab: Element | null, smooth: boolean) => {
    const list = listRef.current;
    if (!list || !(tab instanceof HTMLElement) || list.scrollWidth <= list.clientWidth) return;
    const listBox = list.getBoundingClientRect();
    const tabBox = tab.getBoundingClientRect();
    let delta = 0;
    if (tabBox.left < listBox.left + EDGE_PX) delta = tabBox.left - listBox.left - EDGE_PX;
    else if (tabBox.right > listBox.right - EDGE_PX) delta = tabBox.right - listBox.right + EDGE_PX;
    // Only the list scrolls: scrollIntoView would also move the page.
    if (delta) list.scrollBy({ left: delta, behavior: smooth && !reducedMotion() ? 'smooth' : 'auto' });
  }, []);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const active = () => list.querySelector('[role="tab"][data-state="active"]');
    reveal(active(), false);
    measure();
    const resized = new ResizeObserver(() => {
      measure();
      reveal(active(), false);
    });
    resized.observe(list);
    for (const child of Array.from(list.children)) resized.observe(child);
    // The active tab changes from a click, the arrow keys or the URL (?tab=).
    const switched = new MutationObserver(() => reveal(active(), true));
    switched.observe(list, { subtree: true, attributeFilter: ['data-state'] });
    return () => {
      resized.disconnect();
      switched.disconnect();
    };
  }, [measure, reveal]);

  const page = (direction: 1 | -1) => {
    const list = listRef.current;
    if (!list) return;
    list.scrollBy({
      left: direction * Math.max(list.clientWidth * 0.7, 120),
      behavior: reducedMotion() ? 'auto' : 'smooth',
    });
  };

  return (
    <div className="relative flex max-w-full min-w-0">
      <TabsPrimitive.List
        ref={setRefs}
        onScroll={measure}
        onFocus={(event) => reveal(event.target, true)}
        className={cn(
          'inline-flex h-auto max-w-full min-w-0 items-center justify-start gap-1 overflow-x-auto rounded-lg bg-muted p-1 text-muted-foreground [scrollbar-width:none] [&::-webkit-scrollbar]:hidden',
          className,
        )}
        {...props}
      >
        {children}
      </TabsPrimitive.List>
      {overflow.start ? <ScrollHint side="start" onClick={() => page(-1)} /> : null}
      {overflow.end ? <ScrollHint side="end" onClick={() => page(1)} /> : null}
    </div>
  );
}

/**
 * The fade and chevron over an edge with more tabs behind it. Out of the tab order: keyboard users
 * move between tabs with the arrow keys, and the focused tab scrolls into view by itself.
 */
function ScrollHint({ side, onClick }: { side: 'start' | 'end'; onClick: () => void }) {
  const Icon = side === 'start' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-label={side === 'start' ? 'Ver abas anteriores' : 'Ver mais abas'}
      data-testid={`tabs-scroll-${side}`}
      onClick={onClick}
      // Keeps the focus on the tab the person was on.
      onMouseDown={(event) => event.preventDefault()}
      className={cn(
        'absolute inset-y-0 flex w-10 items-center text-foreground',
        side === 'start'
          ? 'left-0 justify-start rounded-l-lg bg-gradient-to-r from-muted from-40% to-transparent pl-1'
          : 'right-0 justify-end rounded-r-lg bg-gradient-to-l from-muted from-40% to-transparent pr-1',
      )}
    >
      <Icon aria-hidden className="size-4" />
    </button>
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'inline-flex min-h-9 shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium transition-all hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn('mt-4 focus-visible:outline-none', className)} {...props} />;
}
