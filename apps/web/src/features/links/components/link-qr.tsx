import { useEffect, useRef, useState, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { useWords } from '../../../i18n/words';
import { paths } from '../../../lib/paths';
import { OwnerProblem } from '../../admin/components/owner-parts';
import { linkQrUrl, mpesaQrOf, type Link, type MpesaQr } from '../api/links-api';
import { linkWords } from '../links-words';

/** What the QR card shows of a link: the shop, the amount, what it is for, its address. */
interface QrCardProps {
  link: Link;
  shopName: string;
}

/** The link's address without its scheme, short enough to type from paper. */
const shortAddress = (link: Link) => `${window.location.host}${paths.pay(link.code)}`;

/** The card that is shown, and printed on A6: the link's own QR code with what it asks for. */
function QrCard({ link, shopName, image }: QrCardProps & { image?: Ref<HTMLImageElement> }) {
  const words = useWords(linkWords);
  const amount =
    link.amount !== null ? words.kes(link.amount) : words.qr.anyAmountFrom(link.minAmount ?? 1);
  const address = shortAddress(link);
  return (
    <figure className="link-qr-card">
      {shopName && <p className="link-qr-shop">{shopName}</p>}
      <p className="link-qr-amount">{amount}</p>
      <p className="link-qr-purpose">{link.purpose}</p>
      <img ref={image} src={linkQrUrl(link.id, 'svg')} alt={words.qr.alt(address)} />
      <figcaption>
        <span className="link-qr-scan">{words.qr.scan}</span>
        <span className="link-qr-address">{address}</span>
      </figcaption>
    </figure>
  );
}

/**
 * Prints the card alone, on A6 (links.css: every other child of the body is hidden in print, and
 * the card's page is named `link-qr`): a copy under the body while printing, once its image is
 * decoded, so that the page is not printed around it.
 */
function usePrintCard(props: QrCardProps) {
  const [printing, setPrinting] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (!printing) return;
    let cancelled = false;
    const done = () => setPrinting(false);
    document.body.classList.add('printing-link-qr');
    window.addEventListener('afterprint', done);
    void Promise.resolve(image.current?.decode?.())
      .catch(() => undefined)
      .then(() => {
        if (!cancelled) window.print();
      });
    return () => {
      cancelled = true;
      window.removeEventListener('afterprint', done);
      document.body.classList.remove('printing-link-qr');
    };
  }, [printing]);
  const sheet = printing
    ? createPortal(
        <div className="link-qr-print">
          <QrCard {...props} image={image} />
        </div>,
        document.body,
      )
    : null;
  return { print: () => setPrinting(true), sheet };
}

/**
 * A link's QR codes: its own, to show, print on A6 or download as PNG; and, for an owner or a
 * cashier and a link with a fixed amount that takes payments, M-PESA's, made on request.
 */
export function LinkQr({ link, shopName, mayAskMpesa }: QrCardProps & { mayAskMpesa: boolean }) {
  const words = useWords(linkWords);
  const { print, sheet } = usePrintCard({ link, shopName });
  const canAskMpesa = mayAskMpesa && link.amount !== null && link.status === 'active';
  return (
    <div className="link-qr">
      <div className="link-qr-codes">
        <QrCard link={link} shopName={shopName} />
        {canAskMpesa && <MpesaQrPanel link={link} />}
      </div>
      <div className="link-actions">
        <button type="button" className="button" onClick={print}>
          {words.qr.print}
        </button>
        <a className="button" href={linkQrUrl(link.id, 'png')} download={`pay-${link.code}.png`}>
          {words.qr.download}
        </a>
      </div>
      {sheet}
    </div>
  );
}

/** M-PESA's own QR code (Daraja's Dynamic QR), asked for when wanted: each asks M-PESA. */
function MpesaQrPanel({ link }: { link: Link }) {
  const words = useWords(linkWords);
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'asking' }
    | { kind: 'made'; qr: MpesaQr }
    | { kind: 'failed'; error: unknown }
  >({ kind: 'idle' });
  async function ask() {
    setState({ kind: 'asking' });
    try {
      setState({ kind: 'made', qr: await mpesaQrOf(link.id) });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  }
  if (state.kind === 'made') {
    const { qr } = state;
    return (
      <figure className="link-qr-card link-qr-mpesa">
        <p className="link-qr-shop">{words.qr.mpesa}</p>
        <img
          src={`data:image/png;base64,${qr.png}`}
          alt={words.qr.mpesaAlt(words.kes(qr.amount))}
        />
        <figcaption>{words.qr.mpesaScan(qr.trxCode, qr.shortcode, qr.reference)}</figcaption>
      </figure>
    );
  }
  return (
    <div className="link-qr-mpesa">
      <button
        type="button"
        className="button"
        disabled={state.kind === 'asking'}
        onClick={() => void ask()}
      >
        {state.kind === 'asking' ? words.qr.mpesaAsking : words.qr.mpesaAsk}
      </button>
      {state.kind === 'failed' && <OwnerProblem error={state.error} />}
    </div>
  );
}
