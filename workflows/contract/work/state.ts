// The work phase's state (docs/protocol.md §6, §7): the delivery the Worker made, its automatic
// verification, the Client's change requests and the deadlines they moved. Changed only by its named
// mutators. One delivery's work; a contract in stages would keep one per stage.
import type { AutoVerificationView, ContentRef } from '../../definitions';
import type { Deadlines } from '../../rules/deadlines';
import type { Pulse } from '../phase';

/** The delivery as the workflow keeps it: the key-less reference, the content hash, when. */
export type Delivery = ContentRef & { contentHash: string; deliveredAt: number; round: number };

/** A change request (docs/protocol.md §7) and the deadlines it set. */
export interface Revision {
  requestedAt: number;
  criteria: number[];
  note: string | null;
  deliveryDeadline: number;
  reviewDeadline: number;
}

export class WorkPhase {
  delivery: Delivery | null = null;
  /** The automatic verifier's result (auto-verifier.ts), once the delivery is scored. */
  autoVerification: AutoVerificationView | null = null;
  /** The Client's change requests, oldest first. */
  revisions: Revision[] = [];

  constructor(
    private readonly pulse: Pulse,
    /** The deadlines in force: the terms', the delivery and review ones moved by change requests. */
    public deadlines: Readonly<Deadlines>,
  ) {}

  /** The Worker delivered: `under-review`. */
  delivered(delivery: Delivery): void {
    this.delivery = delivery;
    // A redelivery after a change request is scored afresh (auto-verifier.ts).
    this.autoVerification = null;
    this.pulse.transition('under-review');
  }

  /** The automatic verifier's result (auto-verifier.ts). */
  autoVerified(view: AutoVerificationView): void {
    this.autoVerification = view;
  }

  /** The Client sent the delivery back (the deadlines move as the request says): `matched` again. */
  changesRequested(revision: Revision): void {
    this.revisions.push(revision);
    this.deadlines = {
      ...this.deadlines,
      delivery: revision.deliveryDeadline,
      review: revision.reviewDeadline,
    };
    this.pulse.transition('matched');
  }

  /** No redelivery by the moved delivery deadline: the last delivery stands, the review resumes. */
  deliveryStands(): void {
    this.pulse.transition('under-review');
  }
}
