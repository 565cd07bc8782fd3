/** The header of a verified-agent ticket: answered after a verified signature, presented by the SDKs (docs/security.md). */
export const TICKET_HEADER = 'OpenContract-Ticket';
