import "server-only";

// Times in e-mails: minutes are precise enough, and UTC is unambiguous for owners anywhere.
export function formatEmailTime(time: Date): string {
  return `${time.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
