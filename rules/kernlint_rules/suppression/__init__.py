"""Rules about kernlint's own suppression comments (KL001), run after suppression is applied."""
