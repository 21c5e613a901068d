import { useEffect, useRef, useState } from 'react';
import { useWords } from '../../../i18n/words';
import { detailsWords } from './details-words';

/** How long "Copied" stays, so that copying again is announced again. */
const SAID_FOR_MS = 4000;

/** Copies the M-PESA receipt number, and says so to everyone, screen-reader users included. */
export function CopyReceipt({ receipt }: { receipt: string }) {
  const words = useWords(detailsWords);
  // What was said, put in words at render time: switching language changes it on screen.
  const [said, setSaid] = useState<'copied' | 'copyFailed' | ''>('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    try {
      // No clipboard on a plain-HTTP origin other than localhost: that throws too.
      await navigator.clipboard.writeText(receipt);
      setSaid('copied');
    } catch {
      setSaid('copyFailed');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setSaid(''), SAID_FOR_MS);
  }

  return (
    <div className="copy-receipt">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {words.copyReceipt}
      </button>
      <span className="copy-receipt-said" role="status" aria-live="polite">
        {said && words[said]}
      </span>
    </div>
  );
}
