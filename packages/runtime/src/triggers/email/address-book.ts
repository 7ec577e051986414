import { type EmailBinding, emailBinding } from "./payload-schema";
import { TriggerBindError } from "../listener";

/** Why a recipient is refused; the SMTP layer turns each into a reply code. */
export type Refusal =
  | { kind: "other_domain"; domain: string }
  | { kind: "unknown_mailbox" }
  | { kind: "sender_not_allowed"; sender: string }
  | { kind: "too_big"; limit: number };

export type Resolution = { ok: true; binding: EmailBinding; tag?: string } | { ok: false; refusal: Refusal };

function splitAddress(address: string): { local: string; domain: string } | undefined {
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return undefined;
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** An entry is a whole address (ada@example.com) or a whole domain (@example.com); case never matters. */
export function senderAllowed(allowFrom: string[] | undefined, sender: string): boolean {
  if (!allowFrom || allowFrom.length === 0) return true;
  const s = sender.toLowerCase();
  const domain = splitAddress(s)?.domain;
  return allowFrom.some((entry) => {
    const e = entry.toLowerCase();
    return e.startsWith("@") ? domain === e.slice(1) : e === s;
  });
}

/**
 * Live map of local parts to the flows that own them. Local parts and the domain compare
 * case-insensitively, as mail users expect; `orders+urgent` reaches `orders` with tag `urgent`
 * unless a flow owns `orders+urgent` itself (an exact owner always wins).
 */
export function createAddressBook(domain: string) {
  const ownDomain = domain.toLowerCase();
  const byLocal = new Map<string, EmailBinding>();
  const byFlow = new Map<string, string>();

  const unbind = (flowId: string): void => {
    const local = byFlow.get(flowId);
    if (local === undefined) return;
    byFlow.delete(flowId);
    byLocal.delete(local);
  };

  return {
    /** Binds (or re-binds) a flow; throws when another flow already owns the local part. */
    bind(input: EmailBinding): void {
      const binding = emailBinding.parse(input);
      const local = binding.localPart.toLowerCase();
      const owner = byLocal.get(local);
      if (owner && owner.flowId !== binding.flowId) {
        throw new TriggerBindError(
          `e-mail address ${local}@${ownDomain} is already used by flow ${owner.flowId}`,
        );
      }
      unbind(binding.flowId);
      byLocal.set(local, binding);
      byFlow.set(binding.flowId, local);
    },
    unbind,
    /** Decides one envelope recipient: which flow gets it, or why it is refused. */
    resolve(recipient: string, sender: string, declaredSize?: number): Resolution {
      const parts = splitAddress(recipient.toLowerCase());
      if (!parts) return { ok: false, refusal: { kind: "unknown_mailbox" } };
      if (parts.domain !== ownDomain)
        return { ok: false, refusal: { kind: "other_domain", domain: parts.domain } };
      let binding = byLocal.get(parts.local);
      let tag: string | undefined;
      const plus = parts.local.indexOf("+");
      if (!binding && plus > 0) {
        binding = byLocal.get(parts.local.slice(0, plus));
        // the tag keeps the sender's spelling: it is data for the flow, not part of the address key
        tag = recipient.slice(plus + 1, recipient.lastIndexOf("@")) || undefined;
      }
      if (!binding) return { ok: false, refusal: { kind: "unknown_mailbox" } };
      if (!senderAllowed(binding.allowFrom, sender))
        return { ok: false, refusal: { kind: "sender_not_allowed", sender } };
      if (
        binding.maxMessageBytes !== undefined &&
        declaredSize !== undefined &&
        declaredSize > binding.maxMessageBytes
      ) {
        return { ok: false, refusal: { kind: "too_big", limit: binding.maxMessageBytes } };
      }
      return tag === undefined ? { ok: true, binding } : { ok: true, binding, tag };
    },
    size: () => byFlow.size,
  };
}

export type AddressBook = ReturnType<typeof createAddressBook>;
