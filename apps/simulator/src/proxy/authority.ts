/**
 * The proxy mode's certificate authority (tunnel.ts; why this library: docs/decisions/004): a key
 * pair and a certificate, made at first use and kept in a folder (SIM_PROXY_CA_DIR, config.ts),
 * so that a client told once to trust it goes on trusting it after a restart; and, signed by it,
 * a certificate for each of Daraja's two hosts, made when a tunnel first needs it and kept in
 * memory only. What a client trusts is the authority: a host certificate made anew by each run is
 * as good as the last one.
 *
 * The authority may vouch for those two host names only (a critical X.509 name constraint): a
 * client that trusts it trusts nothing else because of it, even if its key file were copied.
 *
 * Its dates are the real clock's, not the simulator's (clock.ts): the client checks a
 * certificate's dates against its own clock, which POST /_sim/clock/advance does not move.
 */
import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it, loaded first.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  GeneralName,
  GeneralSubtree,
  GeneralSubtrees,
  NameConstraints,
  id_ce_nameConstraints,
} from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import { SimulatorConfigError } from '../config.ts';
import { fileProblem, replaceFile } from '../files.ts';

/** Daraja's two hosts (docs/daraja-protocol.md §1), the only ones the proxy answers for. */
export const DARAJA_HOSTS = ['sandbox.safaricom.co.ke', 'api.safaricom.co.ke'] as const;
export type DarajaHost = (typeof DARAJA_HOSTS)[number];

export function isDarajaHost(host: string): host is DarajaHost {
  return (DARAJA_HOSTS as readonly string[]).includes(host);
}

/** The authority's certificate: the file a client is told to trust. */
export const CA_CERTIFICATE_FILE = 'daraja-simulator-proxy-ca.pem';
/** Its private key, with the certificate: the one file that must be neither lost nor shared. */
export const CA_KEY_FILE = 'daraja-simulator-proxy-ca-key.pem';

/**
 * WebCrypto as the global `crypto`: @peculiar/x509 is typed with the global CryptoKey, which
 * node:crypto's own types no longer match.
 */
const webcrypto = globalThis.crypto;
/** ECDSA on P-256: made in milliseconds, and every TLS client in use takes it. */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
const CA_LIFETIME_MS = 10 * 365 * DAY_MS;
/** Well under the 825 days Apple's clients accept from any authority; made anew before its end. */
const HOST_LIFETIME_MS = 90 * DAY_MS;
/** Dated an hour back, so that a client whose clock is a little behind takes a fresh one. */
const BACKDATE_MS = 3_600_000;

interface Authority {
  certificate: x509.X509Certificate;
  pem: string;
  /** As @peculiar/x509 types it (the global CryptoKey, which not every set of types declares). */
  signingKey: x509.X509CertificateCreateWithKeyParams['signingKey'];
}

interface HostCertificate {
  context: tls.SecureContext;
  renewAt: number;
}

export class CertificateAuthority {
  readonly folder: string;
  /** Where the authority's certificate is (or will be, once `load` has run). */
  readonly certificateFile: string;
  #authority: Promise<Authority> | undefined;
  readonly #hosts = new Map<DarajaHost, Promise<HostCertificate>>();

  constructor(folder: string) {
    this.folder = path.resolve(folder);
    this.certificateFile = path.join(this.folder, CA_CERTIFICATE_FILE);
  }

  /**
   * Reads the authority from its folder, or makes it there if the folder has none. Once: later
   * calls share the first's answer, unless it failed (a folder fixed meanwhile is tried again). A
   * folder that cannot be used is a SimulatorConfigError that says why.
   */
  async load(): Promise<void> {
    await this.#open();
  }

  async certificatePem(): Promise<string> {
    return (await this.#open()).pem;
  }

  /** What a tunnel to `host` serves: that host's certificate and key. */
  async secureContext(host: DarajaHost): Promise<tls.SecureContext> {
    const kept = await this.#hosts.get(host)?.catch(() => undefined);
    // Real time, as the client's check uses (above).
    if (kept && kept.renewAt > Date.now()) return kept.context;
    const made = this.#open().then((authority) => hostCertificate(authority, host));
    this.#hosts.set(host, made);
    try {
      return (await made).context;
    } catch (error) {
      this.#hosts.delete(host);
      throw error;
    }
  }

  #open(): Promise<Authority> {
    this.#authority ??= openAuthority(this.folder).catch((error: unknown) => {
      this.#authority = undefined;
      throw error;
    });
    return this.#authority;
  }
}

/** The problem with the authority's folder or files, naming the setting that chooses another. */
function unusable(folder: string, problem: string): SimulatorConfigError {
  return new SimulatorConfigError(
    'SIM_PROXY_CA_DIR',
    `(${folder}) cannot keep the proxy's certificate authority: ${problem}. Choose another folder, or turn the proxy off with SIM_PROXY=false.`,
  );
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The key file kept from before is its owner's alone: one that others may read (its mode changed by
 * hand, or copied in) is set back to 0600, as the API does with its database file. One that cannot
 * be changed (someone else's) is refused: a key others may read could vouch for anyone's Daraja.
 */
async function keepOwnerOnly(folder: string, keyFile: string): Promise<void> {
  if (((await fs.promises.stat(keyFile)).mode & 0o077) === 0) return;
  try {
    await fs.promises.chmod(keyFile, 0o600);
  } catch (error) {
    throw unusable(
      folder,
      `${keyFile} may be read by others, and cannot be made its owner's alone (${fileProblem(keyFile, error)}); run chmod 600 on it`,
    );
  }
}

async function openAuthority(folder: string): Promise<Authority> {
  const keyFile = path.join(folder, CA_KEY_FILE);
  let authority: Authority;
  try {
    // Owner only, as the key inside it.
    await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    const kept = await readIfThere(keyFile);
    if (kept !== undefined) await keepOwnerOnly(folder, keyFile);
    authority = await readAuthority(kept ?? (await makeAuthority(keyFile)), keyFile);
    // The certificate alone, for clients to trust: written again whenever it is missing or differs.
    const certificateFile = path.join(folder, CA_CERTIFICATE_FILE);
    if ((await readIfThere(certificateFile)) !== authority.pem) {
      await replaceFile(certificateFile, authority.pem);
    }
  } catch (error) {
    if (error instanceof SimulatorConfigError) throw error;
    // mkdir's EEXIST: the folder's name is a file's.
    const isFile = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw unusable(folder, isFile ? 'it is a file, not a folder' : fileProblem(keyFile, error));
  }
  return authority;
}

/** Only Daraja's hosts, whatever the authority signs (RFC 5280 §4.2.1.10). */
function onlyDarajaHosts(): x509.Extension {
  const subtrees = DARAJA_HOSTS.map(
    (host) => new GeneralSubtree({ base: new GeneralName({ dNSName: host }) }),
  );
  const constraints = new NameConstraints({ permittedSubtrees: new GeneralSubtrees(subtrees) });
  return new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(constraints));
}

/**
 * Makes an authority and keeps it in `keyFile`: the key and the certificate, written whole under
 * another name, then linked to their own, which fails if the file is there. So of two simulators
 * starting at once on one folder, one makes the authority and both use it.
 */
async function makeAuthority(keyFile: string): Promise<string> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=daraja-simulator local proxy CA, O=daraja-simulator',
    keys,
    signingAlgorithm: ALGORITHM,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + CA_LIFETIME_MS),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      onlyDarajaHosts(),
    ],
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const text = `${x509.PemConverter.encode(key, 'PRIVATE KEY')}\n${certificate.toString('pem')}\n`;
  const temporary = `${keyFile}.${process.pid}.new`;
  await replaceFile(temporary, text);
  try {
    await fs.promises.link(temporary, keyFile);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.promises.readFile(keyFile, 'utf8');
  } finally {
    await fs.promises.rm(temporary, { force: true });
  }
}

/** The authority in a key file's text, refused in a sentence when it cannot serve. */
async function readAuthority(text: string, keyFile: string): Promise<Authority> {
  const folder = path.dirname(keyFile);
  const blocks = x509.PemConverter.isPem(text) ? x509.PemConverter.decodeWithHeaders(text) : [];
  const key = blocks.find((block) => block.type === 'PRIVATE KEY')?.rawData;
  const der = blocks.find((block) => block.type === 'CERTIFICATE')?.rawData;
  const remake = `delete ${keyFile} to have a new authority made (clients must then trust the new one)`;
  if (!key || !der) {
    throw unusable(folder, `${keyFile} does not hold a private key and a certificate; ${remake}`);
  }
  const certificate = new x509.X509Certificate(der);
  const own = new crypto.X509Certificate(Buffer.from(der));
  const privateKey = crypto.createPrivateKey({
    key: Buffer.from(key),
    format: 'der',
    type: 'pkcs8',
  });
  if (!own.checkPrivateKey(privateKey)) {
    throw unusable(folder, `the key and the certificate in ${keyFile} do not match; ${remake}`);
  }
  if (certificate.notAfter.getTime() < Date.now() + DAY_MS) {
    throw unusable(
      folder,
      `its authority expires on ${certificate.notAfter.toISOString()}; ${remake}`,
    );
  }
  const signingKey = await webcrypto.subtle.importKey('pkcs8', key, ALGORITHM, false, ['sign']);
  return { certificate, pem: `${certificate.toString('pem')}\n`, signingKey };
}

async function hostCertificate(authority: Authority, host: DarajaHost): Promise<HostCertificate> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.create({
    subject: `CN=${host}`,
    issuer: authority.certificate.subjectName,
    publicKey: keys.publicKey,
    signingKey: authority.signingKey,
    signingAlgorithm: ALGORITHM,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + HOST_LIFETIME_MS),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: host }]),
      await x509.AuthorityKeyIdentifierExtension.create(authority.certificate.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    context: tls.createSecureContext({
      key: x509.PemConverter.encode(key, 'PRIVATE KEY'),
      cert: certificate.toString('pem'),
    }),
    renewAt: now + HOST_LIFETIME_MS - DAY_MS,
  };
}
