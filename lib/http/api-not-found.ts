// Any path under /api that no route serves: the spec's JSON error form instead of the
// framework's HTML 404 page, which a script calling the API could not read.
export function apiNotFound(): Response {
  return Response.json(
    {
      error: "No such endpoint. The renter API is under /api/v1 (described at /api/v1/openapi.json), the owner API under /api/public.",
    },
    { status: 404 },
  );
}
