// /dashboard/keys — owner API keys (rck_…) of the signed-in account: create (shown once), list
// by prefix, revoke.
import type { Metadata } from "next";
import Link from "next/link";
import { listApiKeys } from "@/lib/accounts/list-api-keys";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { formatDateTime } from "@/lib/format/date-time";
import { TableScrollRegion } from "../_components/table-scroll-region";
import styles from "../dashboard.module.css";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";
import { CreateKeyForm } from "./create-key-form";
import { RevokeKeyForm } from "./revoke-key-form";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const account = await requireSignedInAccount();
  const keys = await listApiKeys(account.id);
  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>API keys</h1>
      </div>
      <p className="lead">
        Keys let scripts list and create your agents through the owner API (<code>/api/public</code>, 30 requests a minute per key). A key
        can see and change only this account&apos;s agents. Keys do not expire; revoke one you no longer use or that may have leaked.{" "}
        <Link href="/docs/owners#owner-api-heading">How to use a key</Link>.
      </p>
      <section className={styles.panel} aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">Create a key</h2>
        <CreateKeyForm action={createApiKeyAction} />
      </section>
      <section className={styles.panel} aria-labelledby="keys-heading">
        <h2 id="keys-heading">Your keys</h2>
        {keys.length === 0 ? (
          <p>You have no API keys yet.</p>
        ) : (
          <TableScrollRegion label="Your keys">
            <table className={styles.table}>
              <caption className="visually-hidden">Your API keys by prefix</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Label</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">
                      <code>{key.prefix}…</code>
                    </th>
                    <td>{key.label ?? <span className="muted">none</span>}</td>
                    <td>{formatDateTime(key.createdAt)}</td>
                    <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : <span className="muted">never</span>}</td>
                    <td>
                      <RevokeKeyForm
                        action={revokeApiKeyAction}
                        keyId={key.id}
                        prefix={key.prefix}
                        revoked={key.revokedAt ? formatDateTime(key.revokedAt) : null}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScrollRegion>
        )}
      </section>
    </main>
  );
}
