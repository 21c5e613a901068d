import { useEffect, useRef, useState } from 'react';

/** How long "Copied" stays, so that copying again is announced again. */
const SAID_FOR_MS = 4000;

/** Copies the M-PESA receipt number, and says so to everyone, screen-reader users included. */
export function CopyReceipt({ receipt }: { receipt: string }) {
  const [said, setSaid] = useState('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    try {
      // No clipboard on a plain-HTTP origin other than localhost: that throws too.
      await navigator.clipboard.writeText(receipt);
      setSaid('Copied');
    } catch {
      setSaid('Could not copy: select the receipt number and copy it.');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setSaid(''), SAID_FOR_MS);
  }

  return (
    <div className="copy-receipt">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        Copy receipt
      </button>
      <span className="copy-receipt-said" role="status" aria-live="polite">
        {said}
      </span>
    </div>
  );
}
