"""Delivery: what the bot sends without being asked — the dispatcher that sends what moves
stored in the outbox, the timer loop, direct messages, what Discord's refusals of a delivery
mean, and the news of a game's end.
"""
