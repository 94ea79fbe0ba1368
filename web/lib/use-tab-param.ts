import { useSearchParams } from 'react-router';

/**
 * A tab kept in the URL (`?tab=`), so a reload or a shared link opens the same tab. The first tab
 * is the default and leaves the URL clean; an unknown value falls back to it.
 */
export function useTabParam<T extends string>(tabs: ReadonlyArray<{ value: T }>): [T, (next: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const fallback = tabs[0].value;
  const param = searchParams.get('tab');
  const tab = tabs.find((t) => t.value === param)?.value ?? fallback;
  const selectTab = (next: string) =>
    setSearchParams(
      (prev) => {
        const params = new URLSearchParams(prev);
        if (next === fallback) params.delete('tab');
        else params.set('tab', next);
        return params;
      },
      { replace: true },
    );
  return [tab, selectTab];
}
