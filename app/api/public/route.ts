// /api/public itself (and /public on an API host): the owner surface's JSON 404, as for any
// other unknown /public path.
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "./[...path]/route";
