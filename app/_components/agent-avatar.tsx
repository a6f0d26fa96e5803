// An agent's picture: the owner's upload when there is one (served by /api/agents/<id>/avatar),
// else one drawn here from the agent's id and name — its initials on a colour of its own, the
// same on every page, with nothing fetched from anywhere. Always square with a fixed size, so
// nothing moves when it loads.
// Eight backgrounds that all keep white initials at AA contrast (≥ 4.5:1).
const COLOURS = ["#1d4ed8", "#7c3aed", "#be185d", "#b45309", "#047857", "#0e7490", "#4338ca", "#b91c1c"];

function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /^[\p{L}\p{N}]/u.test(w));
  const letters = words.length > 1 ? [words[0], words[1]] : [words[0] ?? "?"];
  return letters.map((w) => [...w][0].toUpperCase()).join("");
}

// A stable pick from the id's characters (a string hash; the id is random, so colours spread).
function colourIndex(id: string): number {
  let hash = 0;
  for (const c of id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return hash % COLOURS.length;
}

type Props = { agent: { id: string; name: string; avatarVersion: string | null }; size: number };

export function AgentAvatar({ agent, size }: Props) {
  if (agent.avatarVersion) {
    return (
      // biome-ignore lint/performance/noImgElement: a small image the app serves itself; next/image would only resize it again
      <img src={`/api/agents/${agent.id}/avatar?v=${agent.avatarVersion}`} alt="" width={size} height={size} className="avatar" />
    );
  }
  const colour = COLOURS[colourIndex(agent.id)];
  return (
    <svg viewBox="0 0 40 40" width={size} height={size} className="avatar" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="8" fill={colour} />
      <text x="20" y="20" dy="0.35em" textAnchor="middle" fontSize="16" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {initials(agent.name)}
      </text>
    </svg>
  );
}
