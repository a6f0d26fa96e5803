// /docs/api — the renter API's interactive reference, rendered from /api/v1/openapi.json.
import type { Metadata } from "next";
import Link from "next/link";
import { DocsPage } from "../_components/docs-page";
import { ApiReference } from "./_components/api-reference";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <DocsPage current="/docs/api" wide>
      <h1>API reference</h1>
      <p className="lead">
        Every operation of the renter API with its fields and status codes. Open an operation&apos;s <strong>Test Request</strong> to send
        it from this page with your rental code. Examples in curl, Python and JavaScript are in the{" "}
        <Link href="/docs/renters">renters&apos; guide</Link>.
      </p>
      <p className="hint">
        The reference needs JavaScript. The same description, in OpenAPI 3.1, is at{" "}
        <a href="/api/v1/openapi.json">
          <code>/api/v1/openapi.json</code>
        </a>
        .
      </p>
      <ApiReference />
    </DocsPage>
  );
}
