// The dashboard navigation: the Notifications link's unread badge (from the database, gone once
// the notifications are marked read, as the notifications page's actions do) and the current
// page marked with aria-current.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent } from "@/test/fixtures";

let pathname = "/dashboard";
vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/navigation")>()),
  usePathname: () => pathname,
}));

const { default: Layout } = await import("@/app/dashboard/layout");
const { markAllReadAction, markReadAction } = await import("@/app/dashboard/notifications/actions");

const render = async () => renderToStaticMarkup(await Layout({ children: null }));
const notificationsLink = (html: string) => /<a [^>]*href="\/dashboard\/notifications"[^>]*>.*?<\/a>/.exec(html)?.[0];
const notify = (accountId: string, title = "Your rental has ended") =>
  db.notification.create({ data: { accountId, kind: "rental-ended", title, body: "Body." } });

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  pathname = "/dashboard";
  owner = await signInNewOwner();
});

describe("dashboard navigation", () => {
  it("links Notifications with no badge while nothing is unread", async () => {
    expect(notificationsLink(await render())).toBe('<a href="/dashboard/notifications">Notifications</a>');
  });

  it("shows the unread count, in words for screen readers, until the notifications are marked read", async () => {
    await notify(owner.id);
    expect(notificationsLink(await render())).toMatch(
      />Notifications<span class="[^"]+" aria-hidden="true">1<\/span><span class="visually-hidden"> \(1 unread\)<\/span><\/a>$/,
    );

    const other = await makeOwner(); // someone else's notifications do not count
    await notify(other.id);
    await notify(owner.id, "Another rental has ended");
    expect(notificationsLink(await render())).toContain('>2</span><span class="visually-hidden"> (2 unread)');

    await markAllReadAction();
    expect(notificationsLink(await render())).toBe('<a href="/dashboard/notifications">Notifications</a>');
  });

  it("counts down as single notifications are marked read, and shows 99+ past 99", async () => {
    const first = await notify(owner.id);
    await notify(owner.id, "Another rental has ended");
    await markReadAction(first.id);
    expect(notificationsLink(await render())).toContain("(1 unread)");

    await db.notification.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        accountId: owner.id,
        kind: "rental-ended",
        title: `Rental ${i}`,
        body: "Body.",
      })),
    });
    const link = notificationsLink(await render());
    expect(link).toContain('aria-hidden="true">99+</span>');
    expect(link).toContain("(121 unread)");
  });

  it("marks the current page, and its section on the pages below it", async () => {
    pathname = "/dashboard/agents/new";
    expect(await render()).toContain('<a aria-current="page" href="/dashboard/agents/new">List an agent</a>');

    await makeOwnerAgent(owner.id, { listing: { name: "Mine" } }); // the owner's items from the first listing
    pathname = "/dashboard/notifications";
    let html = await render();
    expect(notificationsLink(html)).toContain('aria-current="page"');
    expect(html.match(/aria-current=/g)).toHaveLength(1);

    pathname = "/dashboard/agents/0b83e3cb-3cc3-4cd5-984c-92dd2d9a4b33";
    html = await render();
    expect(html).toContain('<a aria-current="true" href="/dashboard/agents">Listings</a>');
    expect(html).toContain('<a href="/dashboard">Overview</a>');
    expect(html.match(/aria-current=/g)).toHaveLength(1);

    pathname = "/dashboard";
    expect(await render()).toContain('<a aria-current="page" href="/dashboard">Overview</a>');
  });
});
