// Debouncing a value that changes as the user types.
import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `delayMs` (search as you type without a request per key). */
export function useDebouncedValue<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
