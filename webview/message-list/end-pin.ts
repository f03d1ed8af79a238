/**
 * Keeps a scroller on its newest end while the user is there, without moving
 * the content: the browser's scroll anchoring does it. The scroller's last
 * child is a 1px pin. While the pin is in view the scroller has the class
 * `pinned`, under which the content is no scroll anchor (`overflow-anchor:
 * none`), so the pin is the only one: whatever grows above it, the browser
 * scrolls by as much, during layout. Scrolled back, the content is anchored
 * as usual, so what the user reads stays put while answers stream in below
 * or older entries above get their real height.
 *
 * (It used to be a `column-reverse` scroller, whose scroll origin is the
 * newest end. That pins by CSS alone, but a growing answer then moves all of
 * the content in layout, so every frame re-did pre-paint and paint for
 * everything in view: a fifth of the main thread while streaming.)
 *
 * No layout is read per chunk. The browser tells when the pin enters or
 * leaves the view (IntersectionObserver) and when the scroller is resized
 * (ResizeObserver); only those rare moments read and write the scroll position.
 */

/** How to place the view when a scroller is attached: at the end, or this far (CSS px) from it. */
export type Placement = { readonly fromEnd: number };

export class EndPin {
  private scroller: HTMLElement | undefined;
  private intersection: IntersectionObserver | undefined;
  private resize: ResizeObserver | undefined;
  /** Where to put the view once the newly attached scroller is laid out. */
  private placement: Placement | undefined;
  /** Whether the view is (or is to be kept) at the newest end. */
  private atEnd = true;
  /** Whether the scroller scrolled since the pin was last seen in view. */
  private scrolled = false;

  /** `onChange(atEnd)`: the view left or reached the newest end. */
  constructor(private readonly onChange: (atEnd: boolean) => void) {}

  /** Whether the view is at the newest end (as last reported by the browser: no layout read). */
  get pinned(): boolean {
    return this.atEnd;
  }

  /**
   * Watches `scroller` (whose last child is `pin`), placed as `placement`
   * says once it is laid out (left where it is without one). Call again when
   * the scroller is replaced.
   */
  attach(scroller: HTMLElement, pin: Element, placement: Placement | undefined): void {
    if (scroller === this.scroller) return;
    this.detach();
    this.scroller = scroller;
    this.placement = placement;
    this.setAtEnd(placement ? placement.fromEnd === 0 : this.atEnd);
    scroller.addEventListener('scroll', this.onScroll, { passive: true });
    this.intersection = new IntersectionObserver((entries) => this.onPin(entries.at(-1)!), { root: scroller });
    this.intersection.observe(pin);
    // Called once after the first layout (that is when the placement is applied), then on every resize.
    this.resize = new ResizeObserver(() => this.onResize());
    this.resize.observe(scroller);
  }

  detach(): void {
    this.scroller?.removeEventListener('scroll', this.onScroll);
    this.intersection?.disconnect();
    this.resize?.disconnect();
    this.scroller = this.intersection = this.resize = undefined;
  }

  /** Goes to the newest end and stays there (the user sent a prompt, or asked for the newest entry). */
  goToEnd(): void {
    this.scrolled = false;
    this.toEnd();
    this.setAtEnd(true);
  }

  /** Distance of the view from the newest end (reads layout: for sampling, not per chunk). */
  distanceFromEnd(): number {
    const s = this.scroller;
    return s ? Math.max(0, Math.round(s.scrollHeight - s.clientHeight - s.scrollTop)) : 0;
  }

  private readonly onScroll = (): void => {
    this.scrolled = true;
  };

  private onResize(): void {
    const s = this.scroller;
    if (!s) return;
    const placement = this.placement;
    this.placement = undefined;
    // After the first layout, the entries' own elements have rendered too: one placement, once.
    if (placement && placement.fromEnd > 0) s.scrollTop = s.scrollHeight - s.clientHeight - placement.fromEnd;
    // A view that shrinks (a prompt opened below it) keeps showing the newest end.
    else if (this.atEnd) this.toEnd();
  }

  private onPin(entry: IntersectionObserverEntry): void {
    if (entry.isIntersecting) {
      this.scrolled = false;
      this.setAtEnd(true);
    } else if (this.atEnd && !this.scrolled) {
      // Pushed out of view without any scrolling: the content has just grown
      // taller than the view, and the browser does not anchor a scroller that
      // is at offset 0. Go to the end once; from there the pin holds.
      this.toEnd();
    } else {
      this.setAtEnd(false);
    }
  }

  private toEnd(): void {
    const s = this.scroller;
    if (s) s.scrollTop = s.scrollHeight;
  }

  private setAtEnd(atEnd: boolean): void {
    this.scroller?.classList.toggle('pinned', atEnd);
    if (atEnd === this.atEnd) return;
    this.atEnd = atEnd;
    this.onChange(atEnd);
  }
}
