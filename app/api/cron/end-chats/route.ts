// GET|POST /api/cron/end-chats — every minute (vercel.json): chats bound to a rental that can no
// longer be used (ended, cancelled, disputed) are disconnected and told once; old delivery claims
// are forgotten. Answers with the run's summary.
import { endFinishedChats } from "@/lib/channels/end-finished-chats";
import { cronRoute } from "@/lib/http/routes/cron-route";

// Each notice is one platform call; a run stops at 500 bindings and the next takes the rest.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(endFinishedChats);
