import type { Toolset } from "@custody/shared";
import type { Icon } from "@modelcontextprotocol/server";

/** A 24×24 SVG as a data: URI (base64, as MCP asks of one): no network, nothing for a client to fetch. */
function svgIcon(body: string): Icon {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`;
  return { src: `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`, mimeType: "image/svg+xml", sizes: ["any"] };
}

/** The server's: a shield, the custody workspace's keys held in the HSM. */
export const SERVER_ICONS: Icon[] = [svgIcon('<path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="#2f5d8a"/>')];

/** One per toolset: every tool of a group shows its group's. */
export const TOOLSET_ICONS: Record<Toolset, Icon[]> = {
  read: [svgIcon('<circle cx="10" cy="10" r="6" fill="none" stroke="#2f5d8a" stroke-width="3"/><path d="m15 15 6 6" stroke="#2f5d8a" stroke-width="3"/>')],
  operators: [svgIcon('<circle cx="12" cy="7" r="5" fill="#6a4c93"/><path d="M3 22a9 9 0 0 1 18 0z" fill="#6a4c93"/>')],
  transactions: [svgIcon('<path d="M3 8h15l-4-4M21 16H6l4 4" fill="none" stroke="#1b7f5c" stroke-width="3"/>')],
  solana_staking: [svgIcon('<path d="M6 4h15l-3 4H3zm-3 6h15l3 4H6zm3 6h15l-3 4H3z" fill="#9945ff"/>')],
  polkadot_staking: [
    svgIcon('<circle cx="12" cy="12" r="4" fill="#e6007a"/><circle cx="12" cy="3" r="2.5" fill="#e6007a"/><circle cx="12" cy="21" r="2.5" fill="#e6007a"/>'),
  ],
  ethereum_staking: [svgIcon('<path d="m12 1 7 11-7 4-7-4zm0 16 7-4-7 10-7-10z" fill="#627eea"/>')],
};
