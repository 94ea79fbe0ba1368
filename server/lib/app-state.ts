/**
 * One part of what an app keeps in memory (a module's caches and listeners): its name, and how the
 * app builds it the first time the part is asked for. A slot is a constant; the state lives in
 * the `AppState` of each app.
 */
export interface StateSlot<T> {
  readonly name: string;
  readonly create: (state: AppState) => T;
}

export function stateSlot<T>(name: string, create: (state: AppState) => T): StateSlot<T> {
  return Object.freeze({ name, create });
}

/**
 * What one app keeps in memory for its modules, built by server/app.ts and handed to every module
 * in its deps (`AppDeps.state`). Each module declares its slot next to its code and reads it with
 * `state.of(slot)`; two apps in one process (tests, benches) each build their own, so they share
 * no cache and no listener.
 */
export class AppState {
  private readonly parts = new Map<StateSlot<unknown>, unknown>();

  of<T>(slot: StateSlot<T>): T {
    if (!this.parts.has(slot)) this.parts.set(slot, slot.create(this));
    return this.parts.get(slot) as T;
  }
}
