// /api/v1 itself (and /v1 on an API host): the renter surface's JSON 404 with CORS, as for any
// other unknown /v1 path.
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "./[...path]/route";
