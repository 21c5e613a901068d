import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useWords } from '../../../i18n/words';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { ownerWords } from '../owner-words';
import { useOwnerProblem } from '../problem';

/** Moves focus to what has just appeared, so that keyboard and screen-reader users start there. */
function useFocusOnShow<T extends HTMLElement>() {
  const element = useRef<T>(null);
  useEffect(() => element.current?.focus(), []);
  return element;
}

/** Why something failed, in an alert that takes focus: the API's words, or the way to sign in. */
export function OwnerProblem({ error }: { error: unknown }) {
  const box = useFocusOnShow<HTMLDivElement>();
  const problem = useOwnerProblem()(error);
  return (
    <div className="error-message" role="alert" tabIndex={-1} ref={box}>
      {problem.kind === 'sign-in' ? <SignInNotice /> : <p>{problem.message}</p>}
    </div>
  );
}

/** How long "Copied" stays, so that copying again is announced again. */
const SAID_FOR_MS = 4000;

/** Copies a text, and says so to everyone, screen-reader users included. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const words = useWords(ownerWords);
  // What was said, kept as what happened so that it follows the language.
  const [said, setSaid] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    try {
      // No clipboard on a plain-HTTP origin other than localhost: that throws too.
      await navigator.clipboard.writeText(text);
      setSaid('copied');
    } catch {
      setSaid('failed');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setSaid(null), SAID_FOR_MS);
  }

  return (
    <div className="copy-receipt">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span className="copy-receipt-said" role="status" aria-live="polite">
        {said === 'copied' ? words.copied : said === 'failed' ? words.copyFailed : ''}
      </span>
    </div>
  );
}

/**
 * A secret shown this once (a one-time link, an API key): its words, the secret, a copy button,
 * and Done, which forgets it. It takes focus when it appears.
 */
export function OnceShown(props: {
  title: string;
  secret: string;
  copyLabel: string;
  children: ReactNode;
  onDone: () => void;
}) {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const words = useWords(ownerWords);
  return (
    <section className="success-message once-shown" aria-labelledby="once-shown-title">
      <h3 id="once-shown-title" tabIndex={-1} ref={heading}>
        {props.title}
      </h3>
      {props.children}
      <p>
        <code className="once-shown-secret">{props.secret}</code>
      </p>
      <CopyButton text={props.secret} label={props.copyLabel} />
      <button type="button" className="button button-secondary" onClick={props.onDone}>
        {words.done}
      </button>
    </section>
  );
}

/**
 * "Are you sure?" in place, reachable by keyboard: focus goes to the question's safe answer when it
 * appears, and Escape is that answer too.
 */
export function Confirm(props: {
  question: string;
  yes: string;
  no: string;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  const safe = useFocusOnShow<HTMLButtonElement>();
  return (
    <div
      className="confirm"
      role="group"
      aria-label={props.question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onNo();
      }}
    >
      <p>{props.question}</p>
      <button
        type="button"
        className="button button-primary"
        onClick={props.onYes}
        disabled={props.busy}
      >
        {props.yes}
      </button>
      <button type="button" className="button button-secondary" onClick={props.onNo} ref={safe}>
        {props.no}
      </button>
    </div>
  );
}
