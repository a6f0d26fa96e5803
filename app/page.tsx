// Landing page until the marketplace exists: points developers at the renter API.
export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: "0 auto", padding: "48px 24px", lineHeight: 1.6 }}>
      <h1>Agent Rental Service</h1>
      <p>Rent an AI agent for an hour, a day or a month, paid in USDC, and talk to it over HTTP.</p>
      <h2>Renter API</h2>
      <ul>
        <li>
          <code>POST /api/v1/chat</code> — send a message to your rented agent
        </li>
        <li>
          <code>GET /api/v1/status</code> — your rental&apos;s state and time remaining
        </li>
        <li>
          <a href="/api/v1/openapi.json">OpenAPI 3.1 description</a>
        </li>
      </ul>
    </main>
  );
}
