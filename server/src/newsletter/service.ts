// Newsletter rules: one signup per address; signing up twice is not an error for the visitor.
import type { Db } from "../db/client";
import { insertSignup } from "./repo";

export async function subscribe(db: Db, email: string): Promise<{ message: string }> {
  const isNew = await insertSignup(db, email.trim().toLowerCase());
  return {
    message: isNew
      ? "You're on the list! We'll write when new worlds open."
      : "You're already on the list. We'll be in touch.",
  };
}
