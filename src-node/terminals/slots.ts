/**
 * The per-session terminal limit. A slot is taken when a request arrives,
 * before the user is asked (so eight prompts cannot pile up a ninth
 * terminal), held by the terminal while it runs and while it is being torn
 * down, and given back only when its processes are gone.
 */
import { TerminalError } from './errors';

/** A slot held for a request that is being prepared or awaiting consent. */
export interface SlotReservation {
  /** Gives the slot back (the request was refused or failed). Idempotent. */
  release(): void;
  /** True until released, cancelled, or taken by a terminal. */
  readonly active: boolean;
}

class Reservation implements SlotReservation {
  state: 'reserved' | 'taken' | 'returned' = 'reserved';
  constructor(private readonly pool: SlotPool) {}
  get active(): boolean {
    return this.state === 'reserved';
  }
  release(): void {
    if (this.state !== 'reserved') return;
    this.state = 'returned';
    this.pool.free(this);
  }
}

export class SlotPool {
  private used = 0;
  private readonly reserved = new Set<Reservation>();
  private closed = false;

  constructor(readonly max: number) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Slots held by reservations and terminals (running or being torn down). */
  get inUse(): number {
    return this.used;
  }

  reserve(): SlotReservation {
    if (this.closed) throw new TerminalError('disposed', "This session's terminals have been ended.");
    if (this.used >= this.max) {
      throw new TerminalError('too-many', `At most ${this.max} terminals per session; release one first.`);
    }
    this.used++;
    const reservation = new Reservation(this);
    this.reserved.add(reservation);
    return reservation;
  }

  /** The reservation's slot becomes the terminal's; freed later with `free()`. */
  take(reservation: SlotReservation): void {
    if (!(reservation instanceof Reservation) || !this.reserved.has(reservation)) {
      throw new TerminalError(
        this.closed ? 'disposed' : 'invalid-request',
        'This terminal request no longer holds a slot.',
      );
    }
    reservation.state = 'taken';
    this.reserved.delete(reservation);
  }

  free(reservation?: SlotReservation): void {
    if (reservation instanceof Reservation) this.reserved.delete(reservation);
    this.used = Math.max(0, this.used - 1);
  }

  /** No more slots, and every pending reservation is void (its request will be refused). */
  close(): void {
    this.closed = true;
    for (const reservation of this.reserved) {
      reservation.state = 'returned';
      this.free(reservation);
    }
  }
}
