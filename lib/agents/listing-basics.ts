/** The fields every view of a listing (the owner's, the marketplace's) shows as they are stored. */
export function listingBasics<C extends string>(agent: {
  id: string;
  name: string;
  description: string;
  category: string;
  skills: string[];
  channels: C[];
}) {
  const { id, name, description, category, skills, channels } = agent;
  return { id, name, description, category, skills, channels };
}
