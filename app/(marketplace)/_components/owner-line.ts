/** Who lists an agent, in public words: the display name the owner chose, never their e-mail or wallet. */
export function ownerLine(ownerName: string | null): string {
  return ownerName ? `by ${ownerName}` : "by an independent owner";
}
