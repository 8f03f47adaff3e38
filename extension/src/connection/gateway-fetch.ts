/** fetch that adds `Authorization: Bearer <token>` for a gateway in front of the module. */
export function gatewayFetch(token: string | undefined, base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  if (token === undefined) return base;
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
}
