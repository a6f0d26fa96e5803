// /api itself serves nothing: the same JSON 404 as any unknown /api path, for every method.
export { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "./[...path]/route";
