// A self-signed X.509 certificate (PEM) for an RSA key, built with node:crypto alone: the platform
// mock serves Google's "x509" certificates of its local signing key, which nothing in Node creates.
import { createPublicKey, type KeyObject, sign } from "node:crypto";

// DER: a tag, its length, its content.
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const sequence = (...content: Buffer[]) => der(0x30, ...content);
const oid = (hex: string) => der(0x06, Buffer.from(hex, "hex"));
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`));

// sha256WithRSAEncryption (1.2.840.113549.1.1.11) and commonName (2.5.4.3).
const SHA256_WITH_RSA = sequence(oid("2a864886f70d01010b"), Buffer.from([0x05, 0x00]));
const COMMON_NAME = oid("550403");

/** A certificate for `privateKey`'s public half, named and issued by `commonName`, valid for `days`. */
export function selfSignedCertificate(privateKey: KeyObject, commonName: string, days = 30): string {
  const name = sequence(der(0x31, sequence(COMMON_NAME, der(0x0c, Buffer.from(commonName)))));
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([0x02]))), // version 3
    der(0x02, Buffer.from([0x01])), // serial number
    SHA256_WITH_RSA,
    name,
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + days * 86_400_000))),
    name,
    createPublicKey(privateKey).export({ format: "der", type: "spki" }),
  );
  const signature = sign("sha256", tbs, privateKey);
  const certificate = sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.from([0x00]), signature));
  const lines = certificate.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}
