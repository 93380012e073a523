import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { flashDurationMs } from '../../shared/constants.ts';

type FlashVariant = 'success' | 'danger';

interface FlashMessage {
  id: number;
  text: string;
  variant: FlashVariant;
}

type ShowFlash = (text: string, variant: FlashVariant) => void;

const FlashContext = createContext<{ current: FlashMessage | null; show: ShowFlash } | null>(null);

export function FlashProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<FlashMessage | null>(null);
  const nextId = useRef(1);
  const show = useCallback<ShowFlash>((text, variant) => {
    setCurrent({ id: nextId.current++, text, variant });
  }, []);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), flashDurationMs);
    return () => clearTimeout(timer);
  }, [current]);

  const value = useMemo(() => ({ current, show }), [current, show]);
  return <FlashContext value={value}>{children}</FlashContext>;
}

function useFlashContext() {
  const context = useContext(FlashContext);
  if (!context) throw new Error('useFlash must be used inside <FlashProvider>');
  return context;
}

export function useFlash(): ShowFlash {
  return useFlashContext().show;
}

/** The bar at the top of the page: green for success, red for failure, gone after 3 s. */
export function FlashBar() {
  const { current } = useFlashContext();
  // The live regions stay mounted so screen readers announce each new message.
  return (
    <div className="flash-bar">
      <div role="status" aria-live="polite" aria-atomic="true">
        {current?.variant === 'success' && (
          <div
            key={current.id}
            className="alert alert-success text-white bg-success mb-0 rounded-0 text-center"
          >
            {current.text}
          </div>
        )}
      </div>
      <div role="alert" aria-atomic="true">
        {current?.variant === 'danger' && (
          <div
            key={current.id}
            className="alert alert-danger text-white bg-danger mb-0 rounded-0 text-center"
          >
            {current.text}
          </div>
        )}
      </div>
    </div>
  );
}
