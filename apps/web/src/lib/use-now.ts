import { useEffect, useState } from 'react';

/** The time now, refreshed every `everyMs`, so ages ("12 s ago") tick without a refetch. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
